#!/bin/sh
# peers-build.sh -- builds the two peers that have no Debian package from
# the sources crates.io ships (`make speed` runs it before the build):
#
#   boringssl  BoringSSL from the boring-sys 5.4.0 crate (deps/boringssl):
#              Biggers' VAES/AVX-512 and VAES/AVX2 AES-GCM
#              (gen/bcm/aes-gcm-avx{512,2}-x86_64-linux.S)
#   awslc      AWS-LC from the aws-lc-sys 0.47.0 crate (aws-lc/)
#
# Each libcrypto is built once, static, Release, with its assembly, into
# the cache ${AESIR_PEER_CACHE:-$HOME/.cache/aesir/peers}/<name>/ (lib/,
# include/, PREFIX, BUILD_SECONDS); bench/CMakeLists.txt finds it there.
#
# Both are OpenSSL-style libraries whose symbols (EVP_*, AES_*) would clash
# with the system libcrypto that the openssl peer uses, so both are built
# with their documented symbol prefix: every exported symbol X becomes
# <PREFIX>_X, and their headers rename X the same way when the adapter is
# compiled with -DBORINGSSL_PREFIX=<PREFIX>.
#   BoringSSL: -DBORINGSSL_PREFIX=aesir_bssl (include/openssl/prefix_symbols.h
#              ships in the tree, pregenerated for every symbol);
#   AWS-LC:    -DBORINGSSL_PREFIX=aws_lc_0_47_0 with the prefix headers the
#              crate ships (generated-include/), as aws-lc-sys builds it.
#
# The sources come only through cargo: a throwaway Cargo project that
# depends on exactly =5.4.0 / =0.47.0, `cargo fetch`, then `cargo metadata`
# for where cargo unpacked them. Nothing else is downloaded.
#
# Needs cargo, cmake, a C/C++ compiler; without them it says what is
# missing and exits 0: the two peers are then simply not built. Never
# fails the make. JOBS (default: nproc) sets the build parallelism;
# AESIR_PEERS_FORCE=1 rebuilds.
set -u

CACHE=${AESIR_PEER_CACHE:-${HOME:-/tmp}/.cache/aesir/peers}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
BSSL_CRATE=boring-sys
BSSL_VERSION=5.4.0
BSSL_PREFIX=aesir_bssl
AWSLC_CRATE=aws-lc-sys
AWSLC_VERSION=0.47.0
AWSLC_PREFIX=aws_lc_0_47_0

say() { echo "peers-build: $*"; }

built() { [ -f "$CACHE/$1/lib/libcrypto.a" ] && [ -f "$CACHE/$1/PREFIX" ]; }

if [ "${AESIR_PEERS_FORCE:-0}" != 1 ] && built boringssl && built awslc; then
    say "boringssl and awslc already built in $CACHE"
    exit 0
fi

missing=
for t in cargo cmake cc c++; do
    command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
if [ -n "$missing" ]; then
    say "not building BoringSSL and AWS-LC (missing:$missing);" \
        "aesir-bench runs without them"
    exit 0
fi

mkdir -p "$CACHE/fetch/src" || exit 0

# crate_dir <crate> <version> -- where cargo unpacked the crate's sources.
crate_dir() {
    cargo metadata --format-version 1 --manifest-path "$CACHE/fetch/Cargo.toml" \
        2>/dev/null |
        grep -o "\"manifest_path\":\"[^\"]*/$1-$2/Cargo.toml\"" | head -n 1 |
        sed -e 's/^"manifest_path":"//' -e 's#/Cargo.toml"$##'
}

fetch() {
    cat >"$CACHE/fetch/Cargo.toml" <<EOF
# Written by aesir's bench/peers-build.sh: only to fetch two crates' sources.
[package]
name = "aesir-peer-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$BSSL_CRATE = "=$BSSL_VERSION"
$AWSLC_CRATE = "=$AWSLC_VERSION"
EOF
    echo 'fn main() {}' >"$CACHE/fetch/src/main.rs"
    say "cargo fetch $BSSL_CRATE $BSSL_VERSION, $AWSLC_CRATE $AWSLC_VERSION"
    cargo fetch --manifest-path "$CACHE/fetch/Cargo.toml" -q
}

# build <name> <source dir> <prefix> <cmake options...> -- libcrypto only.
build() {
    name=$1 src=$2 prefix=$3
    shift 3
    out=$CACHE/$name bdir=$CACHE/build/$name
    start=$(date +%s)
    say "building $name libcrypto (static, Release, assembly on," \
        "prefix ${prefix}_) with $JOBS job(s): $src"
    rm -rf "$bdir" "$out"
    if ! cmake -S "$src" -B "$bdir" -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
        -DBUILD_TESTING=OFF -DBORINGSSL_PREFIX="$prefix" "$@" \
        >"$CACHE/$name.log" 2>&1 ||
        ! cmake --build "$bdir" --target crypto -j "$JOBS" \
            >>"$CACHE/$name.log" 2>&1; then
        say "$name FAILED (log: $CACHE/$name.log); aesir-bench runs" \
            "without it"
        tail -n 20 "$CACHE/$name.log"
        return 1
    fi
    mkdir -p "$out/lib" "$out/include" &&
        cp "$(find "$bdir" -name libcrypto.a | head -n 1)" "$out/lib/" &&
        cp -R "$src/include/openssl" "$out/include/" || return 1
    # AWS-LC's build copies the prefix headers beside its own.
    if [ -d "$bdir/symbol_prefix_include/openssl" ]; then
        cp "$bdir"/symbol_prefix_include/openssl/* "$out/include/openssl/"
    fi
    echo "$prefix" >"$out/PREFIX"
    echo $(($(date +%s) - start)) >"$out/BUILD_SECONDS"
    say "$name built in $(cat "$out/BUILD_SECONDS") s -> $out"
}

fetch || {
    say "cargo fetch failed (offline?); aesir-bench runs without BoringSSL" \
        "and AWS-LC"
    exit 0
}
bssl_src=$(crate_dir "$BSSL_CRATE" "$BSSL_VERSION")/deps/boringssl
awslc_crate=$(crate_dir "$AWSLC_CRATE" "$AWSLC_VERSION")

if [ "${AESIR_PEERS_FORCE:-0}" = 1 ] || ! built boringssl; then
    if [ -f "$bssl_src/CMakeLists.txt" ]; then
        # The VAES GCM kernels this peer is here for.
        ls "$bssl_src"/gen/bcm/aes-gcm-avx512-x86_64-linux.S >/dev/null 2>&1 ||
            say "warning: no aes-gcm-avx512 kernel in $bssl_src"
        build boringssl "$bssl_src" "$BSSL_PREFIX"
    else
        say "no BoringSSL sources found under the $BSSL_CRATE crate"
    fi
fi

if [ "${AESIR_PEERS_FORCE:-0}" = 1 ] || ! built awslc; then
    if [ -f "$awslc_crate/aws-lc/CMakeLists.txt" ]; then
        # Go and Perl off: the crate ships the generated assembly; the
        # prefix headers come from the crate too (as aws-lc-sys does).
        build awslc "$awslc_crate/aws-lc" "$AWSLC_PREFIX" \
            -DBORINGSSL_PREFIX_HEADERS="$awslc_crate/generated-include" \
            -DDISABLE_GO=ON -DDISABLE_PERL=ON -DBUILD_LIBSSL=OFF \
            -DBUILD_TOOL=OFF -DENABLE_SOURCE_MODIFICATION=OFF \
            -DDISABLE_CPU_JITTER_ENTROPY=ON
    else
        say "no AWS-LC sources found under the $AWSLC_CRATE crate"
    fi
fi
exit 0

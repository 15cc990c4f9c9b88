#!/bin/sh
# sodium-current.sh -- builds a current libsodium (>= 1.0.19: the first
# with AEGIS-128L and AEGIS-256; Debian ships 1.0.18) for test_aegis's
# differential test and the benchmark's AEGIS rows, from the source
# tarball the libsodium-sys-stable crate ships (LATEST.tar.gz; crate
# 1.24.3 carries libsodium 1.0.22).
#
# Once, static, into ${AESIR_PEER_CACHE:-$HOME/.cache/aesir/peers}/
# sodium-current/{include,lib/libsodium.a} (with VERSION and
# BUILD_SECONDS); tests/CMakeLists.txt links test_aegis against it when
# it is there (AESIR_REQUIRE_SODIUM_CURRENT=ON makes it required).
#
# The source comes only through cargo, as in bench/peers-build.sh: a
# throwaway Cargo project that depends on exactly =1.24.3, `cargo fetch`,
# `cargo metadata` for where cargo unpacked it. Nothing else is
# downloaded. Without cargo (or offline) it says so and exits 0.
# AESIR_PEERS_FORCE=1 rebuilds; JOBS sets the make parallelism.
set -u

CACHE=${AESIR_PEER_CACHE:-${HOME:-/tmp}/.cache/aesir/peers}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CRATE=libsodium-sys-stable
VERSION=1.24.3
OUT=$CACHE/sodium-current

say() { echo "sodium-current: $*"; }

if [ "${AESIR_PEERS_FORCE:-0}" != 1 ] && [ -f "$OUT/lib/libsodium.a" ] &&
    [ -f "$OUT/include/sodium.h" ]; then
    say "already built in $OUT"
    exit 0
fi

missing=
for t in cargo cc make tar; do
    command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
if [ -n "$missing" ]; then
    say "not building libsodium (missing:$missing); test_aegis runs" \
        "against its own reference only"
    exit 0
fi

FETCH=$CACHE/fetch-sodium
mkdir -p "$FETCH/src" || exit 0
cat >"$FETCH/Cargo.toml" <<EOT
# Written by aesir's tests/sodium-current.sh: only to fetch one crate's sources.
[package]
name = "aesir-sodium-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$CRATE = "=$VERSION"
EOT
echo 'fn main() {}' >"$FETCH/src/main.rs"
say "cargo fetch $CRATE $VERSION"
if ! cargo fetch --manifest-path "$FETCH/Cargo.toml" -q; then
    say "cargo fetch failed (offline?); test_aegis runs against its own" \
        "reference only"
    exit 0
fi
crate=$(cargo metadata --format-version 1 --manifest-path "$FETCH/Cargo.toml" \
    2>/dev/null |
    grep -o "\"manifest_path\":\"[^\"]*/$CRATE-$VERSION/Cargo.toml\"" |
    head -n 1 | sed -e 's/^"manifest_path":"//' -e 's#/Cargo.toml"$##')
if [ ! -f "$crate/LATEST.tar.gz" ]; then
    say "no LATEST.tar.gz in the $CRATE crate ($crate)"
    exit 0
fi

start=$(date +%s)
bdir=$CACHE/build/sodium-current
rm -rf "$bdir" "$OUT"
mkdir -p "$bdir" || exit 0
tar -xzf "$crate/LATEST.tar.gz" -C "$bdir" || exit 0
src=$(dirname "$(find "$bdir" -maxdepth 2 -name configure | head -n 1)")
say "building libsodium (static) with $JOBS job(s): $src"
log=$CACHE/sodium-current.log
if ! (cd "$src" && ./configure --disable-shared --enable-static \
    --with-pic --prefix="$OUT" && make -j "$JOBS" && make install) \
    >"$log" 2>&1; then
    say "FAILED (log: $log)"
    tail -n 20 "$log"
    rm -rf "$OUT"
    exit 0
fi
grep -o '"[0-9.]*"' "$OUT/include/sodium/version.h" | head -n 1 |
    tr -d '"' >"$OUT/VERSION"
echo $(($(date +%s) - start)) >"$OUT/BUILD_SECONDS"
say "libsodium $(cat "$OUT/VERSION") built in $(cat "$OUT/BUILD_SECONDS") s" \
    "-> $OUT"

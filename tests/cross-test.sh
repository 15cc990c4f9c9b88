#!/bin/sh
# cross-test.sh -- the cross-architecture test matrix (`make cross-test`).
#
# Builds aesir with Debian's cross compilers (clang for wasm32) and runs
# the test suite -- known answers, the NIST/RFC vector files, the
# engine-against-ref differential test, the API and multi-buffer tests,
# the tool's self-test and the dispatch expectations -- under qemu-user
# (or Node.js for wasm32) with the CPU each engine needs:
#
#   aarch64  qemu-aarch64 -cpu max    NEON (vperm-neon) and the Crypto
#                                     Extensions (armv8-ce)
#   ppc      qemu-ppc -cpu 7450       32-bit big-endian G4, AltiVec
#                                     (vperm-altivec, shufb-altivec);
#                                     then the known answers and API
#                                     test on a G3 (750, no AltiVec):
#                                     default ct64
#   ppc64le  qemu-ppc64le -cpu power8 POWER8 in-core crypto (pwr8)
#   s390x    qemu-s390x               big-endian 64-bit (ct64, tables)
#   wasm32   node (WASI)              SIMD128 (vperm-wasm), clang -msimd128
#
# On aarch64 the constant-time check also runs for vperm-neon and
# armv8-ce, and on ppc64le for pwr8 (ct_valgrind_<engine>: key and data
# marked secret, zero errors; ct_valgrind_detects_ttable: errors), under
# Debian's arm64 / ppc64el valgrind, itself run by qemu
# (tests/cross-valgrind.sh; cached in ~/.cache/aesir/cross-valgrind,
# CROSS_VALGRIND_CACHE), and GCM on the pair with fused kernels
# (ct_valgrind_gcm_armv8-ce_ghash-pmull, ct_valgrind_gcm_pwr8_ghash-vpmsumd;
# the other engines are checked without GCM). Valgrind 3.19's POWER8
# executes vcipher and vncipher but does not announce the vector crypto
# facility, so the pwr8 tests tell the check build to assume it
# (AESIR_CT_ASSUME_CPU=power8, honoured only with -DAESIR_CT_CHECK). Not
# elsewhere: s390x has only portable engines, already checked natively,
# at six minutes a run;
# Debian has no valgrind for 32-bit PowerPC, and none exists for wasm32.
# Every test iterates every engine the emulated CPU can run, so each
# engine is checked on its own ISA, and the dispatch tests hide CPU
# features (AESIR_CPU_DISABLE) to check each fallback is chosen. Usage:
#   tests/cross-test.sh [target ...]     (default: all five)
# CROSS_BUILD (default build-cross/) holds one build tree per target;
# CROSS_DIFF_CASES (default 300) sets the random cases per mode and engine
# of the differential test. Exits non-zero if any target fails, after
# running all of them; a missing tool is a failure, never a skip.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=${CROSS_BUILD:-$top/build-cross}
cases=${CROSS_DIFF_CASES:-300}
vgcache=${CROSS_VALGRIND_CACHE:-$HOME/.cache/aesir/cross-valgrind}
jobs=$(nproc 2>/dev/null || echo 2)
targets=${*:-aarch64 ppc ppc64le s390x wasm32}
failed=

need() {
    for p in "$@"; do
        if ! command -v "$p" >/dev/null 2>&1; then
            echo "cross-test: $p not found (run tests/cross-deps.sh)" >&2
            return 1
        fi
    done
}

# configure_linux target processor triple emulator...
configure_linux() {
    t=$1 proc=$2 triple=$3
    shift 3
    emu=$(echo "$*" | tr ' ' ';')
    need "$triple-gcc" "$1" || return 1
    # The constant-time check under the target's valgrind, where Debian
    # has one (tests/cross-valgrind.sh).
    vg=
    case $t in
    aarch64 | ppc64le)
        vg=$(sh "$top/tests/cross-valgrind.sh" "$t" "$vgcache/$t") || {
            echo "cross-test: no valgrind for $t" >&2
            return 1
        }
        ;;
    esac
    # PKG_CONFIG_LIBDIR: never pick up the host's libcrypto.
    PKG_CONFIG_LIBDIR=/nonexistent cmake -S "$top" -B "$out/$t" \
        -DCMAKE_BUILD_TYPE=Release -DAESIR_WERROR=ON \
        -DAESIR_DIFF_REF_CASES="$cases" \
        -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$proc" \
        -DCMAKE_C_COMPILER="$triple-gcc" \
        -DCMAKE_FIND_ROOT_PATH="/usr/$triple" \
        -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER \
        -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
        -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
        -DCMAKE_CROSSCOMPILING_EMULATOR="$emu;-L;/usr/$triple" \
        -DAESIR_CROSS_VALGRIND="$vg" >/dev/null
}

# WASI has no process clocks; wasi-libc emulates clock() and getrusage()
# (used for the tests' timing lines and the harness) with the wall clock.
configure_wasm32() {
    need clang node || return 1
    cmake -S "$top" -B "$out/wasm32" \
        -DCMAKE_BUILD_TYPE=Release -DAESIR_WERROR=ON \
        -DAESIR_DIFF_REF_CASES="$cases" \
        -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_SYSTEM_PROCESSOR=wasm32 \
        -DCMAKE_C_COMPILER=clang -DCMAKE_C_COMPILER_TARGET=wasm32-wasi \
        -DCMAKE_C_FLAGS="-msimd128 -D_WASI_EMULATED_PROCESS_CLOCKS" \
        -DCMAKE_EXE_LINKER_FLAGS="-lwasi-emulated-process-clocks" \
        -DCMAKE_EXECUTABLE_SUFFIX=.wasm \
        -DCMAKE_CROSSCOMPILING_EMULATOR="node;--no-warnings;$top/tests/wasi_run.mjs" \
        >/dev/null
}

# GCM under the emulator: the pairs with a default engine only
# (tests/gcm_pairs.h), every engine still runs.
AESIR_GCM_PAIRS=${AESIR_GCM_PAIRS:-cross}
export AESIR_GCM_PAIRS

# run target [ctest args]: build, then the whole suite under the emulator.
run() {
    t=$1
    shift
    cmake --build "$out/$t" -j "$jobs" >"$out/$t.build.log" 2>&1 || {
        tail -n 30 "$out/$t.build.log"
        return 1
    }
    (cd "$out/$t" && ctest --output-on-failure -j "$jobs" "$@")
}

for t in $targets; do
    echo "== cross-test: $t"
    mkdir -p "$out"
    start=$(date +%s)
    case $t in
    aarch64)
        configure_linux aarch64 aarch64 aarch64-linux-gnu qemu-aarch64 -cpu max &&
            run aarch64
        ;;
    ppc)
        configure_linux ppc ppc powerpc-linux-gnu qemu-ppc -cpu 7450 &&
            run ppc &&
            echo "-- ppc on a G3 (750, no AltiVec): the probe must fall back" &&
            (cd "$out/ppc" && QEMU_CPU=750 qemu-ppc -L /usr/powerpc-linux-gnu \
                tests/test_kat >/dev/null &&
                QEMU_CPU=750 AESIR_EXPECT_DEFAULT=ct64 qemu-ppc \
                    -L /usr/powerpc-linux-gnu tests/test_api >/dev/null)
        ;;
    ppc64le)
        configure_linux ppc64le ppc64le powerpc64le-linux-gnu qemu-ppc64le \
            -cpu power8 && run ppc64le
        ;;
    s390x)
        configure_linux s390x s390x s390x-linux-gnu qemu-s390x && run s390x
        ;;
    wasm32)
        configure_wasm32 && run wasm32
        ;;
    *)
        echo "cross-test: unknown target $t (aarch64 ppc ppc64le s390x wasm32)" >&2
        false
        ;;
    esac
    rc=$?
    echo "== cross-test: $t $([ $rc -eq 0 ] && echo passed || echo FAILED) in $(($(date +%s) - start)) s"
    [ $rc -eq 0 ] || failed="$failed $t"
done

if [ -n "$failed" ]; then
    echo "cross-test FAILED:$failed"
    exit 1
fi
echo "cross-test passed: $targets"

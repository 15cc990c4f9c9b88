#!/bin/sh
# ctest.sh -- the Python tests as one ctest entry (tests/CMakeLists.txt):
# compiles the extension module from python/src against this build's
# libaesir.a with the build's compiler (seconds, not the minutes of a
# wheel build), stages it beside python/aesir's modules in the build
# tree, and runs pytest on python/tests there. `make python-test` is the
# full path: a wheel, a fresh venv, pytest.
#
# usage: ctest.sh CC LIBAESIR_A INCLUDE_DIR STAGE_DIR INSTRUMENT
#   INSTRUMENT: none, sanitize (ASan + UBSan, as AESIR_SANITIZE: the
#   runtime is preloaded into python) or coverage (clang's profile
#   runtime linked in).
# Exit 77 (skipped) only when python3 is older than 3.11 (the limited
# API the module needs), or has no pytest or no Python.h.
set -eu
cc=$1 lib=$2 incdir=$3 stage=$4 instr=$5
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}

if ! "$py" -c "import sys; assert sys.version_info >= (3, 11)" 2>/dev/null; then
    echo "python: skipped: the package needs CPython >= 3.11 ($py is older)"
    exit 77
fi
if ! "$py" -c "import pytest" 2>/dev/null; then
    echo "python: skipped: $py has no pytest (pip install pytest, or apt install python3-pytest)"
    exit 77
fi
inc=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
if [ ! -f "$inc/Python.h" ]; then
    echo "python: skipped: no $inc/Python.h (apt install python3-dev)"
    exit 77
fi

flags="-O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden"
preload=
cases=${AESIR_PY_CASES:-400}
case $instr in
sanitize)
    flags="$flags -fsanitize=address,undefined -fno-sanitize-recover=all"
    case $cc in
    *clang*)
        flags="$flags -shared-libasan"
        # The runtime's name: older clang's, then the per-target one.
        preload=$("$cc" -print-file-name=libclang_rt.asan-x86_64.so)
        [ -f "$preload" ] ||
            preload=$("$cc" -print-file-name=libclang_rt.asan.so)
        ;;
    *) preload=$("$cc" -print-file-name=libasan.so) ;;
    esac
    cases=${AESIR_PY_CASES:-100}
    ;;
coverage) flags="$flags -fprofile-instr-generate" ;;
esac

rm -rf "$stage"
mkdir -p "$stage/aesir"
cp "$here"/../aesir/*.py "$here"/../aesir/*.pyi "$here"/../aesir/py.typed \
    "$stage/aesir/"
# shellcheck disable=SC2086
"$cc" $flags -DPy_LIMITED_API=0x030B0000 -isystem "$inc" -I"$incdir" \
    "$here"/../src/*.c "$lib" -o "$stage/aesir/_aesir.abi3.so"

cd "$stage"
export AESIR_PY_CASES="$cases"
if [ -n "$preload" ]; then
    # Python itself is not instrumented: the ASan runtime must come
    # first, and CPython's own allocations at exit are not leaks to
    # report here.
    LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0 \
        exec "$py" -m pytest -q -p no:cacheprovider "$here"
fi
exec "$py" -m pytest -q -p no:cacheprovider "$here"

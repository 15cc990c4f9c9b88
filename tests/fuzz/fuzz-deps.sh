#!/bin/sh
# fuzz-deps.sh -- run by `make fuzz` first: installs, with apt, what the
# libFuzzer targets need when any is missing (as root, or with sudo):
# clang, its sanitizer and libFuzzer runtimes (libclang-rt-NN-dev, only
# recommended by clang's packages) and llvm-symbolizer (llvm-NN), without
# which crash reports name no file or line. Like tests/ct-msan-deps.sh,
# it says what it could not install and fails.
#
#   tests/fuzz/fuzz-deps.sh [CC]     CC: clang (default) or clang-NN
set -u
cc=${1:-clang}
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

install() {
    echo "fuzz-deps: installing $*"
    if ! { DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@"; }; then
        echo "fuzz-deps: could not install $*" >&2
        exit 1
    fi
}

if ! command -v "$cc" >/dev/null 2>&1; then
    case $cc in
    clang | clang-[0-9]*) install "$cc" ;;
    *)
        echo "fuzz-deps: $cc not found, and it is not a clang to install" >&2
        exit 1
        ;;
    esac
fi
major=$("$cc" -dumpversion | cut -d. -f1)
missing=
for p in "libclang-rt-$major-dev" "llvm-$major"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
        grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] || install $missing
exit 0

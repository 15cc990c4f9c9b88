#!/bin/sh
# ct-msan-deps.sh -- run by `make ct-msan` first (and by `make fuzz`,
# `make coverage` and `make tsan`, which need the same clang pieces:
# libclang-rt-NN-dev holds the libFuzzer, TSan and profile runtimes too):
# installs, with apt, what
# the MemorySanitizer constant-time check needs when any is missing (as
# root, or with sudo): the C compiler (clang), its sanitizer runtime
# (libclang-rt-NN-dev, only recommended by clang's packages) and
# llvm-symbolizer (llvm-NN), without which MSan's reports name no file or
# line. Like cross-deps.sh, it fails, saying what, when it cannot.
#
#   tests/ct-msan-deps.sh [CC]     CC: clang (default) or clang-NN
set -u
cc=${1:-clang}
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

install() {
    echo "ct-msan-deps: installing $*"
    if ! { DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@"; }; then
        echo "ct-msan-deps: could not install $*" >&2
        exit 1
    fi
}

if ! command -v "$cc" >/dev/null 2>&1; then
    case $cc in
    clang | clang-[0-9]*) install "$cc" ;;
    *)
        echo "ct-msan-deps: $cc not found, and it is not a clang to install" >&2
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

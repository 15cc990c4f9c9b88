#!/bin/sh
# cross-deps.sh -- run by `make cross-test` first: installs, with apt, the
# cross compilers, qemu-user, clang with wasm-ld, wasi-libc and Node.js
# that tests/cross-test.sh needs, when any is missing (as root, or with
# sudo). Unlike the benchmark's peers these are not optional: if they
# cannot be installed, it says which and fails.
set -u
PKGS="cmake gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
gcc-powerpc-linux-gnu libc6-dev-powerpc-cross \
gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross \
gcc-s390x-linux-gnu libc6-dev-s390x-cross \
qemu-user clang lld wasi-libc libclang-rt-14-dev-wasm32 nodejs python3"

missing=
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
        grep -q "install ok installed" || missing="$missing $p"
done
# Node.js may come from elsewhere than Debian (it does on the CI image).
case " $missing " in
*" nodejs "*) command -v node >/dev/null 2>&1 &&
    missing=$(echo "$missing" | sed 's/ nodejs//') ;;
esac
[ -z "$missing" ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "cross-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing; }; then
    echo "cross-deps: could not install$missing" >&2
    exit 1
fi

#!/bin/sh
# cross-valgrind.sh -- a valgrind for another architecture, run under
# qemu-user, so that the constant-time check (tests/ct_check.c,
# docs/constant-time.md) covers the engines of that architecture too.
#
#   tests/cross-valgrind.sh ARCH DIR     ARCH: aarch64, ppc64le or s390x
#                                        (cross-test uses aarch64, ppc64le)
#
# Fetches Debian's valgrind, libc6 and libc6-dbg for ARCH (valgrind needs
# the dynamic loader's symbols, which only libc6-dbg has) with apt-get,
# into DIR, using a private apt state: no foreign architecture is added
# to the system's dpkg. Then writes DIR/valgrind, a wrapper that starts
# memcheck itself under qemu (valgrind's launcher would exec the tool,
# which the host kernel cannot run without binfmt_misc), with the target
# libc as qemu's -L root. Prints the wrapper's path; exits 1 on failure.
# Debian ships no valgrind for 32-bit PowerPC and none exists for wasm32:
# those engines are covered by the same C source checked on the others
# (docs/constant-time.md).
set -eu
arch=$1 dir=$2
case $arch in
aarch64) deb=arm64 tool=arm64-linux qemu="qemu-aarch64 -cpu max" ;;
ppc64le) deb=ppc64el tool=ppc64le-linux qemu="qemu-ppc64le -cpu power8" ;;
s390x) deb=s390x tool=s390x-linux qemu="qemu-s390x" ;;
*)
    echo "cross-valgrind: no valgrind for $arch" >&2
    exit 1
    ;;
esac

if [ ! -x "$dir/valgrind" ]; then
    apt="$dir/apt"
    mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/debs"
    set -- -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" \
        -o "Dir::Cache::archives=$apt/archives" \
        -o "APT::Architecture=$deb" -o "APT::Architectures::=$deb" \
        -o Debug::NoLocking=1 -qq
    # An index of another suite (security) may fail to fetch while main
    # is fine; the download below is what must succeed.
    apt-get "$@" update >&2 || true
    (cd "$apt/debs" && apt-get "$@" download valgrind libc6 libc6-dbg) >&2
    rm -rf "$dir/root" "$dir/sysroot"
    dpkg-deb -x "$apt/debs"/valgrind_*.deb "$dir/root"
    for d in "$apt/debs"/libc6_*.deb "$apt/debs"/libc6-dbg_*.deb; do
        dpkg-deb -x "$d" "$dir/sysroot"
    done
    rm -rf "$apt"
    root=$(cd "$dir" && pwd)
    # Absolute symlinks (ppc64el's /lib64/ld64.so.2) would leave qemu's
    # -L root once the host resolves them: point them inside it.
    find "$root/sysroot" -type l | while read -r l; do
        case $(readlink "$l") in
        /*) ln -sfn "$root/sysroot$(readlink "$l")" "$l" ;;
        esac
    done
    cat >"$dir/valgrind" <<EOF
#!/bin/sh
# memcheck for $arch under qemu-user (tests/cross-valgrind.sh).
VALGRIND_LAUNCHER=$root/root/usr/bin/valgrind.bin \\
VALGRIND_LIB=$root/root/usr/libexec/valgrind \\
exec $qemu -L $root/sysroot \\
    $root/root/usr/libexec/valgrind/memcheck-$tool \\
    --extra-debuginfo-path=$root/sysroot/usr/lib/debug "\$@"
EOF
    chmod +x "$dir/valgrind"
fi
echo "$(cd "$dir" && pwd)/valgrind"

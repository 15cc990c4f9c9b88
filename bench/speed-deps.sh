#!/bin/sh
# speed-deps.sh -- run by `make speed` before the build: installs the peer
# libraries' -dev packages that are missing, and a plotting tool, with apt
# when it can (root, apt-get present; `apt-get update` once first).
# Otherwise it names what is missing and carries on: every peer is
# optional, and the build's summary ("aesir-bench peers NOT built") says
# what aesir-bench will run without. Never fails the make.
set -u

PEERS="libssl-dev libgcrypt20-dev nettle-dev libsodium-dev libipsec-mb-dev \
libbearssl-dev libwolfssl-dev libmbedtls-dev"
# age: a peer of the file benchmark (bench/file-speed.sh, `aesir encrypt`
# against `age` with a key).
TOOLS="pkg-config age"

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "speed-deps: not a Debian-like system; install the peer libraries" \
         "yourself (OpenSSL, libgcrypt, nettle, libsodium, intel-ipsec-mb," \
         "BearSSL, wolfSSL, mbedTLS) -- the build lists what it finds"
    exit 0
fi

missing=
for p in $TOOLS $PEERS; do
    installed "$p" || missing="$missing $p"
done
# A plotting tool: matplotlib if python3 has it, else gnuplot.
if ! python3 -c 'import matplotlib' >/dev/null 2>&1 &&
   ! command -v gnuplot >/dev/null 2>&1; then
    missing="$missing gnuplot-nox"
fi

if [ -z "$missing" ]; then
    echo "speed-deps: every peer library and a plotting tool are installed"
    exit 0
fi

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "speed-deps: missing:$missing"
    echo "speed-deps: not root or no apt-get: running without them" \
         "(as root: apt-get install$missing)"
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
echo "speed-deps: installing$missing"
apt-get update -qq || echo "speed-deps: apt-get update failed; trying anyway"
# One transaction first; when a package does not exist here (intel-ipsec-mb
# is x86-64 only), one by one so the others still come.
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null; then
    for p in $missing; do
        apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
            echo "speed-deps: $p could not be installed: running without it"
    done
fi
still=
for p in $missing; do
    case $p in gnuplot-nox) command -v gnuplot >/dev/null 2>&1 && continue ;; esac
    installed "$p" || still="$still $p"
done
[ -n "$still" ] && echo "speed-deps: still missing:$still"
exit 0

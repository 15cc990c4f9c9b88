#!/bin/sh
# pwr8_be_check.sh -- runs tools/pwr8_be_check.c: pwr8's XTS and AEGIS
# hooks and the AEGIS API on them (src/aead/aegis.c: one-shot and
# incremental) on big-endian ppc64 (POWER8), freestanding, under
# qemu-ppc64.
# Needs powerpc-linux-gnu-gcc (its -m64 mode: the headers lack only the
# 64-bit glibc stubs, supplied empty here, as nothing is linked from
# glibc) and qemu-ppc64. Usage: tools/pwr8_be_check.sh [workdir]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
w=${1:-$(mktemp -d)}
mkdir -p "$w/inc/gnu"
: >"$w/inc/gnu/stubs-64.h"
: >"$w/inc/gnu/stubs-64-v1.h"
# The draft's vectors: tests/test_aegis.c from K128 to the end of tvs[].
end=$(awk '/^static const struct tv tvs/ {t = 1} t && /^};/ {print NR; exit}' \
    "$top/tests/test_aegis.c")
sed -n "/^#define K128 /,${end}p" "$top/tests/test_aegis.c" >"$w/pwr8_be_tvs.h"
# pwr8.c's struct names the other fused kernels: never called here.
for f in gcm_enc gcm_dec ccm_enc ccm_dec ocb_enc ocb_dec; do
    echo "void aesir_pwr8_$f(void); void aesir_pwr8_$f(void) {}"
done >"$w/stubs.c"
cc=powerpc-linux-gnu-gcc
cf="-m64 -mcpu=power8 -O2 -Wall -Wextra -Werror -fno-stack-protector
    -ffreestanding -fno-builtin -I$w/inc -I$w -I$top/include -I$top/src/core
    -I$top/src/aead"
objs=
for f in src/engine/pwr8.c src/engine/pwr8_xts.c src/engine/pwr8_aegis.c \
    src/aead/aegis.c tools/pwr8_be_check.c; do
    o="$w/$(basename "$f" .c).o"
    # shellcheck disable=SC2086
    $cc $cf -c "$top/$f" -o "$o"
    objs="$objs $o"
done
$cc -m64 -O2 -c "$w/stubs.c" -o "$w/stubs.o"
# shellcheck disable=SC2086
$cc -m64 -nostdlib -static -Wl,-e,_start $objs "$w/stubs.o" -o "$w/pwr8_be_check"
qemu-ppc64 -cpu power8 "$w/pwr8_be_check"

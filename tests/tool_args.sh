#!/bin/sh
# tool_args.sh -- the command lines of the `aesir` tool and aesir-bench
# are parsed strictly (issue 17, point 6): each bad argument below must
# end the program with exit status 2 and exactly one line on stderr that
# contains the text given; good arguments must still work; an
# AESIR_ENGINE, AESIR_CPU_DISABLE or AESIR_CPU_MODEL value that the
# library ignores must draw a warning from `aesir info` and `aesir
# selftest` (exit status unchanged), and a valid one none.
#
#   sh tests/tool_args.sh path/to/aesir [path/to/aesir-bench]
#
# AESIR_EMULATOR (qemu-user or Node.js, in cross builds) runs the
# programs. Without an aesir-bench path its cases are skipped.
set -u

tool=$1
bench=${2:-}
emu=${AESIR_EMULATOR:-}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fails=0
n=0

bad() { # text program args...: exit status 2, one line holding text
    text=$1
    shift
    n=$((n + 1))
    $emu "$@" >/dev/null 2>"$err"
    rc=$?
    lines=$(wc -l <"$err")
    if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$text" "$err"; then
        echo "FAIL: $* -> status $rc, $lines line(s) on stderr; want 2, 1 line with: $text"
        sed 's/^/    /' "$err"
        fails=$((fails + 1))
    fi
}

good() { # program args...: exit status 0
    n=$((n + 1))
    $emu "$@" >/dev/null 2>"$err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $* -> status $rc, want 0"
        sed 's/^/    /' "$err"
        fails=$((fails + 1))
    fi
}

warns() { # VAR=value text command: status 0, a warning line with text
    n=$((n + 1))
    env "$1" $emu "$tool" "$3" >/dev/null 2>"$err"
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q "^aesir: warning: " "$err" ||
        ! grep -qF -- "$2" "$err"; then
        echo "FAIL: $1 aesir $3 -> status $rc; want 0 and a warning with: $2"
        sed 's/^/    /' "$err"
        fails=$((fails + 1))
    fi
}

quiet() { # VAR=value command: status 0, no warning
    n=$((n + 1))
    env "$1" $emu "$tool" "$2" >/dev/null 2>"$err"
    rc=$?
    if [ $rc -ne 0 ] || grep -q "warning" "$err"; then
        echo "FAIL: $1 aesir $2 -> status $rc; want 0 and no warning"
        sed 's/^/    /' "$err"
        fails=$((fails + 1))
    fi
}

# --- the aesir tool: commands -------------------------------------------
bad "unknown command 'frobnicate'" "$tool" frobnicate
bad "no command" "$tool"
bad "unknown option '--frob'" "$tool" --frob
bad "unexpected argument 'extra'" "$tool" info extra
bad "unexpected argument '-v'" "$tool" selftest -v
good "$tool" --help

# --- aesir speed: numbers, sizes, lists, options ------------------------
s="$tool speed"
bad "'17592186044417M' is out of range" $s --sizes 17592186044417M
bad "'99999999999999999999' is out of range" $s --sizes 99999999999999999999
bad "'0' is out of range" $s --sizes 0
bad "'64x' is not a size" $s --sizes 64x
bad "'1024' repeats '1k'" $s --sizes 1k,1024
bad "'128abc' is not a key size" $s --keys 128abc
bad "'256.9' is not a key size" $s --keys 256.9
bad "'-128' is not a key size" $s --keys -128
bad "'128' is listed twice" $s --keys 128,128
bad "'256' is already in 'all'" $s --keys all,256
bad "empty list of engines" $s --engines ""
bad "empty item (number 2)" $s --engines ref,
bad "'aesir/ref' repeats 'ref'" $s --engines ref,aesir/ref
bad "'bogus' names no engine" $s --engines bogus
bad "empty item (number 2)" $s --modes ctr,,cbc
bad "'frob' is not an operation" $s --modes frob
bad "'cbc-enc' is already in 'cbc'" $s --modes cbc,cbc-enc
bad "'1x' is not a whole number" $s --passes 1x
bad "'0' is out of range" $s --passes 0
bad "'18446744073709551617' is out of range" $s --passes 18446744073709551617
bad "'+5' is not a whole number" $s --rounds +5
bad "--rounds needs a value" $s --rounds
bad "--keys given twice" $s --keys 128 --keys 256
bad "--modes/--ops given twice" $s --modes ctr --ops cbc
bad "unknown option '--frob'" $s --frob
bad "unexpected argument 'stray'" $s stray
good $s --help
good $s --engines ref --modes ctr --keys 128 --sizes 16 --passes 1 \
    --rounds 1 --csv -q

# --- aesir-bench ----------------------------------------------------------
if [ -n "$bench" ]; then
    b=$bench
    bad "'17592186044417M' is out of range" $b --sizes 17592186044417M
    bad "empty item (number 2) in the list of sizes" $b --sizes 16KB,
    bad "'128abc' is not a key size" $b --keys 128abc
    bad "'256.9' is not a key size" $b --keys 256.9
    bad "empty list of impls" $b --impls ""
    bad "empty item (number 1)" $b --impls ,ref
    bad "'ref' is listed twice" $b --impls ref,ref
    bad "'ttable' is already in 'aesir'" $b --impls aesir,ttable
    bad "'nosuchimpl' selects no impl" $b --impls nosuchimpl
    bad "'12x' is not a seed" $b --seed 12x
    bad "'-1' is not a seed" $b --seed -1
    bad "'18446744073709551616' is not a seed" $b --seed 18446744073709551616
    bad "'2.5' is not a whole number" $b --passes 2.5
    bad "'22' is out of range; want 1..21" $b --rounds 22
    bad "'nan' is not a decimal number" $b --round-ms nan
    bad "'1e3' is not a decimal number" $b --slack 1e3
    bad "'12.5' is not whole bytes" $b --out-offset 12.5
    bad "want 0..4095" $b --out-offset 4096
    bad "'24' is not one size, a multiple of 16" $b --mb-size 24
    bad "'ctr' is listed twice" $b --ops ctr,ctr
    bad "--out: empty directory name" $b --out ""
    bad "unexpected argument 'frob'" $b frob
    bad "unknown option '--frob'" $b --frob
    bad "--keys needs a value" $b --keys
    bad "--keys given twice" $b --keys 128 --keys 256
    good $b --help
    good $b --list --no-limit --keys all --sizes 64,1k,16KiB --seed 0x2a \
        --impls aesir/ref,ct64 --ops main,cfb128 --passes 3 --rounds 5 \
        --round-ms 0.5 --slack 1.5 --out-offset 16 --mb-size 1k
fi

# --- environment values the library ignores -------------------------------
for cmd in info selftest; do
    warns AESIR_ENGINE=bogus "AESIR_ENGINE=bogus names no engine" $cmd
    warns AESIR_CPU_DISABLE=aesni,avx3 "'avx3' names no CPU feature" $cmd
    warns "AESIR_CPU_DISABLE=aesni, avx2" "' avx2' names no CPU feature" $cmd
    warns AESIR_CPU_MODEL=zen9 "AESIR_CPU_MODEL=zen9 names no CPU model" $cmd
    quiet AESIR_ENGINE=ref $cmd
    quiet AESIR_ENGINE= $cmd
    quiet AESIR_CPU_DISABLE=all $cmd
    quiet AESIR_CPU_DISABLE=none $cmd
    quiet AESIR_CPU_DISABLE= $cmd
    quiet AESIR_CPU_DISABLE=aesni,,avx2 $cmd
done
# An engine this build or CPU cannot run, when there is one.
off=$($emu "$tool" info 2>/dev/null | awk '$2 == "no" { print $1; exit }')
if [ -n "$off" ]; then
    warns "AESIR_ENGINE=$off" "names an engine that is not available here" info
    # aesir-bench skips it in --impls with a warning (a command written
    # for another CPU still runs); `aesir speed --engines` refuses it.
    if [ -n "$bench" ]; then
        n=$((n + 1))
        $emu "$bench" --list --no-limit --impls "aesir/$off,ref" \
            >/dev/null 2>"$err"
        rc=$?
        if [ $rc -ne 0 ] ||
            ! grep -qF "skipped 'aesir/$off' (this CPU cannot run it)" "$err"; then
            echo "FAIL: aesir-bench --impls aesir/$off,ref -> status $rc; want 0 and a warning"
            sed 's/^/    /' "$err"
            fails=$((fails + 1))
        fi
    fi
    bad "'$off' is not available on this CPU" "$tool" speed --engines "$off"
fi

echo "tool_args: $n cases, $fails failed"
[ $fails -eq 0 ]

#!/bin/sh
# test_tool_tsan.sh -- `aesir encrypt` and `aesir decrypt` on several
# threads under ThreadSanitizer (make tsan; issue 20): the thread pool
# (tools/crypt_pool.c) and the reader and writer threads
# (tools/crypt_pipe.c) with files and pipes, a tampered chunk in a late
# batch, --offset/--length on a pipe (the reader cancelled in read(2)) and
# on a file, a closed stdout pipe, SIGINT during an encryption. Any
# ThreadSanitizer report fails it (TSAN_OPTIONS exitcode=66, and stderr
# is searched for one), and so does a wrong result.
#
#   sh tests/test_tool_tsan.sh path/to/aesir   (built with -DAESIR_TSAN=ON)
set -u

AESIR=${1:?usage: test_tool_tsan.sh path/to/aesir}
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
n=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# A program built without ThreadSanitizer would pass everything below.
if ! nm "$AESIR" 2>/dev/null | grep -q '__tsan_init'; then
    echo "FAIL: $AESIR is not built with ThreadSanitizer (no __tsan_init)"
    exit 1
fi

# expect STATUS DESC CMD...: runs CMD (stderr to $W/err), wants STATUS and
# no ThreadSanitizer report.
expect() {
    want=$1 desc=$2
    shift 2
    n=$((n + 1))
    "$@" 2>"$W/err"
    rc=$?
    if grep -q ThreadSanitizer "$W/err"; then
        fail "$desc: ThreadSanitizer report"
        sed 's/^/    /' "$W/err" | head -60
    elif [ "$rc" -ne "$want" ]; then
        fail "$desc: exit $rc, want $want"
        sed 's/^/    /' "$W/err" | head -20
    fi
}

same() { # A B DESC: files A and B are equal
    n=$((n + 1))
    cmp -s "$1" "$2" || fail "$3: output differs"
}

"$AESIR" keygen -o "$W/key" 2>"$W/err"
if [ $? -eq 4 ]; then
    echo "tool_tsan: SKIPPED: this aesir has no encrypt/decrypt" \
        "(built without libcrypto):"
    sed 's/^/    /' "$W/err"
    exit 0
fi
K="-k $W/key"
CHUNK=16384
SEALED=16400
# 800 chunks + 100 bytes: with 3 threads a batch holds 192 chunks (five
# batches), with 2 threads 128.
head -c $((800 * CHUNK + 100)) /dev/urandom >"$W/m"

for t in 2 3 5; do
    expect 0 "encrypt --threads $t file" \
        "$AESIR" encrypt -q $K --threads $t -o "$W/c$t" "$W/m"
    expect 0 "decrypt --threads $t file to stdout" \
        sh -c "\"\$0\" decrypt -q $K --threads $t \"$W/c$t\" >\"$W/p$t\"" \
        "$AESIR"
    same "$W/m" "$W/p$t" "round trip, $t threads"
    # Pipes both ways.
    expect 0 "encrypt | decrypt, $t threads" \
        sh -c "cat \"$W/m\" | \"\$0\" encrypt -q $K --threads $t |
            \"\$0\" decrypt -q $K --threads $t -o \"$W/q$t\"" "$AESIR"
    same "$W/m" "$W/q$t" "pipes, $t threads"
done

# A tampered chunk in a late batch (chunk 600: the fourth batch with 3
# threads): exit 1, exactly chunks 0..599 on stdout, no file with -o.
cp "$W/c3" "$W/bad"
printf '\377' | dd of="$W/bad" bs=1 seek=$((56 + 600 * SEALED + 77)) \
    conv=notrunc 2>/dev/null
head -c $((600 * CHUNK)) "$W/m" >"$W/want"
for t in 2 3 4; do
    expect 1 "tampered chunk 600, --threads $t" \
        sh -c "\"\$0\" decrypt -q $K --threads $t <\"$W/bad\" >\"$W/got\"" \
        "$AESIR"
    same "$W/want" "$W/got" "tampered chunk 600, $t threads: chunks 0..599"
    expect 1 "tampered chunk 600, --threads $t, -o" \
        "$AESIR" decrypt -q $K --threads $t -o "$W/none" "$W/bad"
    n=$((n + 1))
    [ ! -e "$W/none" ] || fail "tampered, -o: an output file was left"
done

# --offset/--length on a pipe that stays open: the range ends in the
# first batch, the reader waits in read(2) for more and is cancelled.
off=$((100 * CHUNK + 5))
len=$((3 * CHUNK))
tail -c +$((off + 1)) "$W/m" | head -c $len >"$W/want"
mkfifo "$W/fifo"
(head -c $((56 + 300 * SEALED)) "$W/c3"; exec sleep 60) >"$W/fifo" &
feeder=$!
"$AESIR" decrypt -q $K --threads 3 --offset $off --length $len \
    <"$W/fifo" >"$W/got" 2>"$W/err" &
pid=$!
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
done
n=$((n + 1))
if kill -0 $pid 2>/dev/null; then
    fail "--offset on an open pipe: still running after 30 s"
    kill $pid
fi
wait $pid
rc=$?
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null
if grep -q ThreadSanitizer "$W/err"; then
    fail "--offset on an open pipe: ThreadSanitizer report"
    sed 's/^/    /' "$W/err" | head -60
elif [ $rc -ne 0 ]; then
    fail "--offset on an open pipe: exit $rc"
fi
same "$W/want" "$W/got" "--offset on an open pipe"
expect 0 "--offset on a file" sh -c \
    "\"\$0\" decrypt -q $K --threads 3 --offset $off --length $len \
     \"$W/c3\" >\"$W/got\"" "$AESIR"
same "$W/want" "$W/got" "--offset on a file"

# A closed stdout pipe: exit 3 (EPIPE), no report.
(
    "$AESIR" decrypt -q $K --threads 3 "$W/c3" 2>"$W/err"
    echo $? >"$W/rc"
) | head -c 100 >/dev/null
n=$((n + 1))
if grep -q ThreadSanitizer "$W/err"; then
    fail "closed pipe: ThreadSanitizer report"
    sed 's/^/    /' "$W/err" | head -60
elif [ "$(cat "$W/rc")" != 3 ]; then
    fail "closed pipe: exit $(cat "$W/rc"), want 3"
fi

# SIGINT while encrypting from a pipe into a file: killed by the signal,
# no report, nothing left in the directory.
mkdir "$W/sig"
(cat "$W/m"; exec sleep 60) >"$W/fifo" &
feeder=$!
"$AESIR" encrypt -q $K --threads 3 -o "$W/sig/out" <"$W/fifo" 2>"$W/err" &
pid=$!
i=0
while [ -z "$(ls -A "$W/sig")" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
sleep 0.5
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null
n=$((n + 1))
if grep -q ThreadSanitizer "$W/err"; then
    fail "SIGINT: ThreadSanitizer report"
    sed 's/^/    /' "$W/err" | head -60
elif [ $rc -ne 130 ] || [ -n "$(ls -A "$W/sig")" ]; then
    fail "SIGINT: exit $rc (want 130), left: $(ls -A "$W/sig")"
fi

echo "tool_tsan: $n checks, $fails failed"
[ $fails -eq 0 ]

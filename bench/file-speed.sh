#!/bin/sh
# file-speed.sh -- the file section of `make speed` (issue 20 point 4),
# also `make file-speed` alone: `aesir encrypt` and `aesir decrypt` (a key
# file, AES-256-GCM, the C2SP chunked format) on a large file, timed as
# whole processes, beside the peers a user would otherwise run in the
# same session:
#   openssl enc -aes-256-ctr -pbkdf2 -pass pass:x  (unauthenticated; the
#                                 fastest `openssl enc` mode)
#   age with an X25519 key        (ChaCha20-Poly1305, 64 KiB chunks)
#   cat FILE > /dev/null, cp FILE NEW  (the I/O floor)
# Each command runs RUNS times; the median wall time is kept. Outputs go
# to /dev/null and to a new file in the same directory as the input
# (tmpfs: /dev/shm when there is room, so the disk is out of the picture).
#
# usage: file-speed.sh AESIR [AESIR_BENCH]
#   env: SIZE_MB (1024), RUNS (5), DIR (/dev/shm, else $TMPDIR or /tmp)
# AESIR_BENCH (bench/aesir-bench): its AES-256-GCM rate at 16 KiB is the
# yardstick of the one-thread row (--threads 1). A peer that is not
# installed is skipped with a message (bench/speed-deps.sh installs age).
# The targets (issue 20): to /dev/null at least 2x the fastest peer; to a
# file within 1.3x of cp; one thread's crypto at least 85% of aesir's own
# AES-256-GCM at 16 KiB. Timings on a loaded machine are noisy: this
# script says so when the load average exceeds the CPUs.
set -eu

AESIR=${1:?usage: file-speed.sh AESIR [AESIR_BENCH]}
BENCH=${2:-}
SIZE_MB=${SIZE_MB:-1024}
RUNS=${RUNS:-5}
if [ -z "${DIR:-}" ]; then
    DIR=${TMPDIR:-/tmp}
    # Room for the input, three ciphertexts and an output, with margin.
    if [ -d /dev/shm ] && [ -w /dev/shm ] &&
       [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt $((SIZE_MB * 6 * 1024)) ]; then
        DIR=/dev/shm
    fi
fi
W=$(mktemp -d "$DIR/aesir-file-speed.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
F=$W/in
BYTES=$((SIZE_MB * 1048576))

now_ns() { date +%s%N; }

# median -- the median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# timeit CMD -- the median wall time (s) of RUNS runs of the shell
# command CMD; $W/out is removed before each run (a new file every time).
timeit() {
    i=0
    : >"$W/times"
    while [ $i -lt "$RUNS" ]; do
        rm -f "$W/out"
        t0=$(now_ns)
        sh -c "$1" >/dev/null 2>"$W/err" || {
            echo "file-speed: failed: $1" >&2
            cat "$W/err" >&2
            return 1
        }
        t1=$(now_ns)
        echo "$(( (t1 - t0) / 1000 ))" >>"$W/times"
        i=$((i + 1))
    done
    median <"$W/times" | awk '{ printf "%.3f", $1 / 1e6 }'
}

# row LABEL CMD -- times CMD, prints the row and keeps the time in
# $W/t.LABEL for the ratios.
row() {
    t=$(timeit "$2") || { echo "  $1: failed"; return 0; }
    echo "$t" >"$W/t.$1"
    awk -v l="$1" -v t="$t" -v b="$BYTES" \
        'BEGIN { printf "  %-28s %7.3f s %7.2f GB/s\n", l, t, b / t / 1e9 }'
}

get() { [ -f "$W/t.$1" ] && cat "$W/t.$1" || echo ""; }

echo "== file speed: $SIZE_MB MiB in $DIR, whole processes, median of $RUNS wall times =="
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
echo "  $ncpu CPUs online, load average $load"
if awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l > n) }'; then
    echo "  NOTE: the load average exceeds the CPUs: other work shares them," \
        "the figures below are lower and noisier than on a quiet machine"
fi
head -c "$BYTES" /dev/urandom >"$F"
"$AESIR" keygen -o "$W/key" >/dev/null
"$AESIR" encrypt -k "$W/key" -o "$F.aesir" "$F"
OSSL="openssl enc -aes-256-ctr -pbkdf2 -pass pass:x"
have_ossl=0
if command -v openssl >/dev/null 2>&1; then
    $OSSL -in "$F" -out "$F.ossl" && have_ossl=1
else
    echo "  openssl: not installed: skipped"
fi
have_age=0
if command -v age >/dev/null 2>&1 && command -v age-keygen >/dev/null 2>&1; then
    age-keygen -o "$W/age.key" 2>/dev/null
    AGE_R=$(age-keygen -y "$W/age.key")
    age -r "$AGE_R" -o "$F.age" "$F" && have_age=1
else
    echo "  age: not installed: skipped (bench/speed-deps.sh installs it)"
fi

# Keep the input in the page cache (tmpfs: it is already there).
cat "$F" "$F.aesir" >/dev/null

echo "-- the I/O floor"
row cat "cat $F > /dev/null"
row cp "cp $F $W/out"

for dest in null file; do
    if [ $dest = null ]; then
        echo "-- to /dev/null"
        ao="> /dev/null"
        oo="-out /dev/null"
        go="" gr="> /dev/null"
    else
        echo "-- to a new file in $DIR"
        ao="-o $W/out"
        oo="-out $W/out"
        go="-o $W/out" gr=""
    fi
    row "aesir-enc-$dest" "$AESIR encrypt -q -k $W/key $F $ao"
    row "aesir-dec-$dest" "$AESIR decrypt -q -k $W/key $F.aesir $ao"
    if [ $have_ossl = 1 ]; then
        row "openssl-enc-$dest" "$OSSL -in $F $oo"
        row "openssl-dec-$dest" "$OSSL -d -in $F.ossl $oo"
    fi
    if [ $have_age = 1 ]; then
        # age takes its options before the input.
        row "age-enc-$dest" "age -r $AGE_R $go $F $gr"
        row "age-dec-$dest" "age -d -i $W/age.key $go $F.age $gr"
    fi
done
echo "-- one thread (--threads 1), to /dev/null"
row "aesir-enc-1thread" "$AESIR encrypt -q --threads 1 -k $W/key $F > /dev/null"
row "aesir-dec-1thread" "$AESIR decrypt -q --threads 1 -k $W/key $F.aesir > /dev/null"
# The user CPU time of those processes is their crypto (reads and writes
# are system time) plus the process's start-up (dynamic linking,
# libcrypto's set-up: some 4 ms, 4 % of a GiB), which is taken out: the
# same command on an empty input, timed alike. getrusage counts user time
# in scheduler ticks (4 ms at 250 Hz), so each is the median of at least
# 11 runs (python3).
URUNS=$((RUNS > 11 ? RUNS : 11))
usertime() {
    python3 - "$URUNS" "$1" <<'PY'
import resource, subprocess, sys
ts = []
for _ in range(int(sys.argv[1])):
    u0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(sys.argv[2], shell=True, check=True)
    ts.append(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - u0)
print("%.3f" % sorted(ts)[(len(ts) - 1) // 2])
PY
}
if command -v python3 >/dev/null 2>&1; then
    : >"$W/empty"
    $AESIR encrypt -q -k "$W/key" -o "$W/empty.aesir" "$W/empty"
    for op in enc dec; do
        if [ $op = enc ]; then
            c="$AESIR encrypt -q --threads 1 -k $W/key"
            in=$F e=$W/empty
        else
            c="$AESIR decrypt -q --threads 1 -k $W/key"
            in=$F.aesir e=$W/empty.aesir
        fi
        u=$(usertime "$c $in > /dev/null")
        z=$(usertime "$c $e > /dev/null")
        awk -v u="$u" -v z="$z" -v op="$op" 'BEGIN { printf "%.4f\n", u - z }' >"$W/t.$op-user"
        awk -v u="$u" -v z="$z" -v b="$BYTES" -v op="$op" 'BEGIN {
            printf "  user CPU time: %s %.3f s, start-up (empty input) %.3f s: %.2f GB/s (the crypto and the I/O threads'"'"' user time)\n",
                op, u, z, (u > z ? b / (u - z) / 1e9 : 0) }'
    done
fi
# The crypto's own time: --stats gives the CPU time of the thread that
# runs the crypto step (with --threads 1, all of it), timed with
# CLOCK_THREAD_CPUTIME_ID around each batch: no scheduler tick, no
# start-up, no reader or writer thread. The median of URUNS runs.
for op in enc dec; do
    if [ $op = enc ]; then
        c="$AESIR encrypt -q --stats --threads 1 -k $W/key $F"
    else
        c="$AESIR decrypt -q --stats --threads 1 -k $W/key $F.aesir"
    fi
    i=0
    : >"$W/cpu"
    while [ $i -lt "$URUNS" ]; do
        sh -c "$c" 2>&1 >/dev/null |
            sed -n 's/.*crypto: \([0-9.]*\) s CPU.*/\1/p' >>"$W/cpu"
        i=$((i + 1))
    done
    if [ -s "$W/cpu" ]; then
        median <"$W/cpu" >"$W/t.$op-cpu"
        awk -v t="$(cat "$W/t.$op-cpu")" -v b="$BYTES" -v op="$op" 'BEGIN {
            printf "  crypto thread (--stats): %s %.4f s CPU: %.2f GB/s\n", op, t, (t > 0 ? b / t / 1e9 : 0) }'
    fi
done

echo "-- ratios (targets: to /dev/null >= 2x the fastest peer;" \
    "to a file <= 1.3x cp; one thread >= 85% of GCM at 16 KiB)"
for op in enc dec; do
    a=$(get "aesir-$op-null")
    best="" bname=""
    for p in openssl age; do
        t=$(get "$p-$op-null")
        if [ -n "$t" ] && { [ -z "$best" ] || awk -v x="$t" -v y="$best" 'BEGIN { exit !(x < y) }'; }; then
            best=$t bname=$p
        fi
    done
    if [ -n "$a" ] && [ -n "$best" ]; then
        awk -v a="$a" -v p="$best" -v n="$bname" -v op="$op" 'BEGIN {
            r = p / a
            printf "  %s to /dev/null: aesir %.2fx the fastest peer (%s) [%s]\n",
                op, r, n, (r >= 2 ? "met" : "NOT met") }'
    fi
    a=$(get "aesir-$op-file") c=$(get cp)
    if [ -n "$a" ] && [ -n "$c" ]; then
        awk -v a="$a" -v c="$c" -v op="$op" 'BEGIN {
            r = a / c
            printf "  %s to a file: aesir %.2fx the time of cp [%s]\n",
                op, r, (r <= 1.3 ? "met" : "NOT met") }'
    fi
done
# One thread: the crypto's rate is the bytes over the crypto thread's
# CPU time (--stats, above), set against aesir-bench's AES-256-GCM at
# 16 KiB; the process's user time (the I/O threads' locking included) is
# shown beside it.
if [ -n "$BENCH" ] && [ -x "$BENCH" ]; then
    "$BENCH" --impls aesir/default --ops gcm-enc,gcm-dec --keys 256 \
        --sizes 16384 --passes 2 --no-limit --no-files >"$W/bench" 2>&1 || true
    for op in enc dec; do
        g=$(awk -v op="gcm-$op" '$0 ~ "== " op ", AES-256" { f = 1; next }
            f && $1 == "aesir/default" { print $2; exit }' "$W/bench")
        t=$(get "$op-cpu") u=$(get "$op-user")
        if [ -n "$g" ] && [ -n "$t" ]; then
            awk -v g="$g" -v t="$t" -v u="${u:-0}" -v b="$BYTES" -v op="$op" 'BEGIN {
                r = t > 0 ? b / t / 1e9 : 0
                ru = u > 0 ? b / u / 1e9 : 0
                printf "  %s, one thread: %.2f GB/s of crypto (the crypto thread'"'"'s CPU time)" \
                    " vs GCM 16 KiB %.2f GB/s: %.0f%% [%s]; process user time: %.0f%%\n",
                    op, r, g, 100 * r / g, (r >= 0.85 * g ? "met" : "NOT met"), 100 * ru / g }'
        else
            echo "  $op, one thread: no aesir-bench GCM figure to compare with"
        fi
    done
else
    echo "  one thread: aesir-bench not given: no GCM figure to compare with"
fi
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" \
    "(at the start: $load)"

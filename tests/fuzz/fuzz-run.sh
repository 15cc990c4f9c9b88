#!/bin/sh
# fuzz-run.sh -- run by `make fuzz` after the build: each libFuzzer target
# listed in BUILD/tests/fuzz/targets.txt ("name max_len" lines, written by
# tests/fuzz/CMakeLists.txt) for SECONDS seconds, one after the other,
# starting from a copy of its seed corpus in BUILD/fuzz/<name>/corpus (what
# the run adds stays there, out of the tree, and the next run starts from
# it). A crash, a broken FUZZ_CHECK, a sanitizer report, a time-out or
# running out of memory fails the target; the script then prints the end
# of the report and how to replay the input, and exits 1 after running the
# others. One summary line per target: runs, executions per second,
# coverage.
#
#   tests/fuzz/fuzz-run.sh BUILD SECONDS [TARGET...]
set -u
build=${1:?usage: fuzz-run.sh BUILD SECONDS [TARGET...]}
secs=${2:?usage: fuzz-run.sh BUILD SECONDS [TARGET...]}
shift 2
src=$(cd "$(dirname "$0")" && pwd)
list=$build/tests/fuzz/targets.txt
if [ ! -s "$list" ]; then
    echo "fuzz-run: no targets in $list (configure with -DAESIR_FUZZ=ON)" >&2
    exit 1
fi

# Readable stack traces need llvm-symbolizer (Debian: llvm-NN).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
    for s in /usr/lib/llvm-*/bin/llvm-symbolizer; do
        [ -x "$s" ] && ASAN_SYMBOLIZER_PATH=$s
    done
    [ -n "${ASAN_SYMBOLIZER_PATH:-}" ] && export ASAN_SYMBOLIZER_PATH
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

failed=
summary=
while read -r name max_len; do
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    work=$build/fuzz/$name
    mkdir -p "$work/corpus" "$work/crashes"
    if [ -d "$src/corpus/$name" ]; then
        cp "$src/corpus/$name/"* "$work/corpus/"
    else
        echo "fuzz-run: $name has no seeds in tests/fuzz/corpus/$name" >&2
    fi
    echo "== $name: ${secs} s, -max_len=$max_len, corpus $work/corpus"
    "$build/tests/fuzz/$name" -max_total_time="$secs" -max_len="$max_len" \
        -timeout=60 -print_final_stats=1 -artifact_prefix="$work/crashes/" \
        "$work/corpus" </dev/null >"$work/log.txt" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.txt")
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log.txt")
    cov=$(grep -o 'cov: [0-9]*' "$work/log.txt" | tail -1)
    line="$name: ${runs:-?} runs, ${eps:-?} exec/s, ${cov:-cov: ?}"
    if [ $rc -eq 0 ]; then
        summary="$summary$line, ok
"
        continue
    fi
    summary="$summary$line, FAILED (exit $rc)
"
    failed="$failed $name"
    echo "---- end of $work/log.txt:"
    grep -v '^#[0-9]' "$work/log.txt" | tail -60
    art=$(ls -t "$work/crashes/" 2>/dev/null | head -1)
    if [ -n "$art" ]; then
        echo "---- replay (add AESIR_FUZZ_TRACE=1 to see the calls):"
        echo "     $build/tests/fuzz/$name $work/crashes/$art"
    fi
done <"$list"

echo "== fuzzing, ${secs} s per target:"
printf '%s' "$summary"
if [ -n "$failed" ]; then
    echo "fuzz-run: FAILED:$failed" >&2
    exit 1
fi
exit 0

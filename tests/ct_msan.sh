#!/bin/sh
# ct_msan.sh -- runs the MemorySanitizer constant-time check for ctest
# (docs/constant-time.md, section 2; tests/CMakeLists.txt).
#
#   ct_msan.sh clean  CT_CHECK_MSAN [ARGS...]
#       passes when MSan reports nothing and every functional check of
#       ct_check passed (the constant-time engines);
#   ct_msan.sh errors CT_CHECK_MSAN [ARGS...]
#       passes only when MSan reports secret-dependent branches or
#       indices, the first of them inside the library's engines
#       (src/engine/, or src/ghash/ for the GHASH engines), and, in a build with origin tracking
#       (AESIR_MSAN_ORIGINS), on a value that comes from a CT_SECRET of
#       ct_check.c (ttable and ref: this shows the check can fail). Without
#       origins the clean runs are the argument: the same harness and
#       library give no report on the constant-time engines, so nothing but
#       the secrets is poisoned (ttable, ref, ghash-table4, ghash-table8);
#   ct_msan.sh plain  PROGRAM [ARGS...]
#       the program's own verdict (ct_msan_intrin).
#
# The programs are built with -fsanitize-recover=memory and run with
# halt_on_error=0, so a run goes on after a report and ct_check counts the
# reports per section. MSan's exit code when it has reported is set to 99
# (its default, 77, is ctest's "skipped" here: ct_check exits 77 when this
# CPU lacks the engine). ct_check stops by itself, with status 99, after
# 1000 reports: each costs about 0.1 ms, and ttable would give millions.
# AESIR_LLVM_SYMBOLIZER (set by CMake) makes the reports name files and
# lines.
set -u
mode=$1
shift
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT

MSAN_OPTIONS="halt_on_error=0:exitcode=99:print_stats=0${MSAN_OPTIONS:+:$MSAN_OPTIONS}"
export MSAN_OPTIONS
if [ -n "${AESIR_LLVM_SYMBOLIZER:-}" ] && [ -x "$AESIR_LLVM_SYMBOLIZER" ]; then
    MSAN_SYMBOLIZER_PATH=$AESIR_LLVM_SYMBOLIZER
    export MSAN_SYMBOLIZER_PATH
    symbolized=yes
else
    symbolized=no
fi

"$@" >"$out" 2>"$log"
rc=$?
cat "$out"
reports=$(grep -c 'WARNING: MemorySanitizer' "$log")
completed=no
grep -q '^[0-9][0-9]* passed, 0 failed$' "$out" && completed=yes
echo "exit status $rc; MemorySanitizer reports: $reports"

if [ "$rc" -eq 77 ]; then
    echo "SKIPPED: this CPU cannot run the engine"
    exit 77
fi

case $mode in
plain)
    if [ "$rc" -eq 0 ] && [ $completed = yes ]; then
        [ -s "$log" ] && { echo "--- stderr ---"; head -n 40 "$log"; }
        echo "PASS"
        exit 0
    fi
    echo "--- stderr (first 200 lines) ---"
    head -n 200 "$log"
    echo "FAIL"
    exit 1
    ;;
clean)
    if [ "$rc" -eq 0 ] && [ "$reports" -eq 0 ] && [ $completed = yes ]; then
        echo "PASS: no secret-dependent branch, memory index or divisor"
        exit 0
    fi
    echo "--- MemorySanitizer reports (first 300 lines) ---"
    head -n 300 "$log"
    echo "FAIL: expected zero MemorySanitizer reports and a complete run"
    exit 1
    ;;
errors)
    # The first report: where the secret was used, and where it came from.
    first=$(awk '/WARNING: MemorySanitizer/ { n++ } n == 1' "$log" |
        sed '/^SUMMARY:/q')
    echo "--- the first MemorySanitizer report ---"
    printf '%s\n' "$first" | head -n 40
    if [ "$rc" -ne 99 ] || [ "$reports" -eq 0 ]; then
        echo "FAIL: expected MemorySanitizer reports (exit status 99)"
        exit 1
    fi
    if [ $symbolized = yes ]; then
        if ! printf '%s\n' "$first" |
            grep -q '#0 .* in .*/src/\(engine\|ghash\)/'; then
            echo "FAIL: the first report is not inside an engine" \
                "(src/engine/, src/ghash/)"
            exit 1
        fi
        if printf '%s\n' "$first" | grep -q 'Memory was marked as uninit' &&
            ! printf '%s\n' "$first" | grep -q 'in secret_copy .*ct_check.c'; then
            echo "FAIL: the first report's origin is not a CT_SECRET of ct_check"
            exit 1
        fi
    else
        echo "(no llvm-symbolizer: where the report points is not checked)"
    fi
    echo "PASS: the check caught $reports secret-dependent branches or" \
        "indices (ct_check stops at 1000)"
    exit 0
    ;;
*)
    echo "usage: $0 clean|errors|plain PROGRAM [ARGS...]" >&2
    exit 2
    ;;
esac

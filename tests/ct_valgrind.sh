#!/bin/sh
# ct_valgrind.sh -- runs ct_check under valgrind memcheck for ctest.
#
#   ct_valgrind.sh clean  VALGRIND CT_CHECK [ARGS...]
#       passes when valgrind reports no error and every functional check
#       of ct_check passed (the constant-time engines);
#   ct_valgrind.sh errors VALGRIND CT_CHECK [ARGS...]
#       passes only when valgrind reports errors and ct_check otherwise ran
#       to the end with every functional check passing (ttable and ref,
#       ghash-table4 and ghash-table8: this shows the check can fail);
#   exit status 77 (skipped) when ct_check says the engine it was asked
#       for is not available here.
#
# valgrind's --error-exitcode is 99 here, not 1, so that "valgrind found
# secret-dependent branches or indices" (99) can be told apart from
# ct_check's own failures (1, 2) and crashes. --error-limit=no keeps the
# error count exact past valgrind's usual 1000 reports.
set -u
expect=$1 vg=$2
shift 2
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT

"$vg" --error-exitcode=99 --track-origins=yes --error-limit=no \
    --log-file="$log" "$@" >"$out" 2>&1
rc=$?
cat "$out"
summary=$(grep 'ERROR SUMMARY:' "$log" | tail -n 1)
errors=$(printf '%s\n' "$summary" |
    sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) errors.*/\1/p')
completed=no
grep -q '^[0-9][0-9]* passed, 0 failed$' "$out" && completed=yes
echo "valgrind exit status $rc; ${summary:-no ERROR SUMMARY (valgrind did not finish)}"

# ct_check exits 77 when the engine asked for is not available here
# (under valgrind: one whose instructions it cannot execute); ctest
# reports the test as skipped (SKIP_RETURN_CODE).
if [ "$rc" -eq 77 ] && [ "${errors:-x}" = 0 ]; then
    echo "SKIPPED: not available here"
    exit 77
fi

case $expect in
clean)
    if [ "$rc" -eq 0 ] && [ "${errors:-x}" = 0 ] && [ $completed = yes ]; then
        echo "PASS: no secret-dependent branch or memory index"
        exit 0
    fi
    echo "--- valgrind log (first 400 lines) ---"
    head -n 400 "$log"
    echo "FAIL: expected zero valgrind errors and a complete run"
    exit 1
    ;;
errors)
    if [ "$rc" -eq 99 ] && [ "${errors:-0}" -gt 0 ] && [ $completed = yes ]; then
        echo "--- valgrind log (first 40 lines) ---"
        head -n 40 "$log"
        echo "PASS: the check caught $errors secret-dependent branches or indices"
        exit 0
    fi
    echo "--- valgrind log (first 400 lines) ---"
    head -n 400 "$log"
    echo "FAIL: expected valgrind errors from a complete run"
    exit 1
    ;;
*)
    echo "usage: $0 clean|errors VALGRIND CT_CHECK [ARGS...]" >&2
    exit 2
    ;;
esac

#!/usr/bin/env bash
# BUILD_DIR: succeeds when every test the last `ctest` there failed passed its own checks ("Totals: N passed, 0
# failed") and then lost its process to LeakSanitizer's tracer at exit; prints what it found either way. test.sh
# runs those tests once more; a test that failed in any other way fails the command.
set -euo pipefail
dir=${1:?usage: lsan-tracer-crashes.sh BUILD_DIR}
failed=$dir/Testing/Temporary/LastTestsFailed.log
log=$dir/Testing/Temporary/LastTest.log
if [ ! -s "$failed" ] || [ ! -f "$log" ]; then
    echo "lsan-tracer-crashes.sh: no failed tests recorded in $dir" >&2
    exit 1
fi
status=0
while IFS=: read -r _ name; do
    # the test's output: from its "Test: NAME" line to its end time
    out=$(awk -v n="$name" '$0 ~ ("Test: " n "$") { on = 1 } on { print } on && index($0, "\"" n "\" end time") { exit }' "$log")
    if grep -q 'LeakSanitizer has encountered a fatal error' <<<"$out" && grep -Eq '^Totals: [0-9]+ passed, 0 failed' <<<"$out" \
        && ! grep -q '^FAIL!' <<<"$out"; then
        echo "lsan-tracer-crashes.sh: $name passed, then LeakSanitizer's tracer crashed at its exit: run again"
    else
        echo "lsan-tracer-crashes.sh: $name failed on its own: not run again" >&2
        status=1
    fi
done <"$failed"
exit $status

#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 120) from the asan preset's build (clang, ASan + UBSan), as many
# at once as there are cores (FUZZ_JOBS=N sets it): paretoscope_fuzz --target=NAME for each name it lists.
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR]      (FUZZ_TARGETS="sse csv" runs only those)
# Seeds: tests/fuzz/seeds/TARGET, past crashes in tests/fuzz/regressions/TARGET, the real fixtures in
# ../shared/fixtures/real and the shipped recipes. The corpus grows in BUILD_DIR/fuzz-corpus/TARGET; a crash leaves
# its input in BUILD_DIR/fuzz-crashes/ (add it to tests/fuzz/regressions/TARGET/ once fixed). Prints executions per
# target and the total; exits 1 if any target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
build="${2:-build-asan}"
fixtures=../shared/fixtures/real
fuzzer="$build/tests/paretoscope_fuzz"
if [ ! -x "$fuzzer" ]; then
    echo "no fuzzer in $build: configure and build the asan preset first (cmake --preset asan && cmake --build --preset asan)" >&2
    exit 2
fi
mkdir -p "$build/fuzz-crashes"
export fixtures build seconds fuzzer

# one target: its corpus and seeds, SECONDS of libFuzzer, then a line "name executions corpus status" in its .result
fuzz_one() {
    local name=$1 corpus="$build/fuzz-corpus/$1"
    mkdir -p "$corpus"
    local dirs=("$corpus")
    for d in "tests/fuzz/seeds/$name" "tests/fuzz/regressions/$name"; do
        [ -d "$d" ] && dirs+=("$d")
    done
    case "$name" in
        import_inferencex_agg) dirs+=("$fixtures/inferencex-agg") ;;
        import_inferencex_api | import_evaluations | availability) dirs+=("$fixtures/inferencex-app-api") ;;
        import_vllm | import_sglang) dirs+=("$fixtures/inferencex-raw-bench-serving") ;;
        import_store | detect | flat_record) dirs+=("$fixtures/inferencex-agg" "$fixtures/inferencex-raw-bench-serving") ;;
        recipe)
            mkdir -p "$build/fuzz-seeds/recipe"
            cp resources/engine_recipes.json "$build/fuzz-seeds/recipe/"
            dirs+=("$build/fuzz-seeds/recipe")
            ;;
        matrix) dirs+=(resources/matrices) ;;
        tco)
            mkdir -p "$build/fuzz-seeds/tco"
            cp resources/tco_default.json "$build/fuzz-seeds/tco/"
            dirs+=("$build/fuzz-seeds/tco")
            ;;
    esac
    local log="$build/fuzz-corpus/$name.log"
    # leaks are checked by the sanitizer suite; here a leak report on exit would read as a crash of the last input
    ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$fuzzer" --target="$name" -max_total_time="$seconds" \
        -rss_limit_mb=2048 -timeout=20 -max_len=1048576 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz-crashes/$name-" "${dirs[@]}" >"$log" 2>&1
    local status=$?
    local execs
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    local result=ok
    [ $status -ne 0 ] && result="CRASH (see $log)"
    echo "$name ${execs:-0} $(ls "$corpus" | wc -l) $result" >"$build/fuzz-corpus/$name.result"
}
export -f fuzz_one

names=()
for name in $("$fuzzer" --list); do
    if [ -n "${FUZZ_TARGETS:-}" ] && [[ " $FUZZ_TARGETS " != *" $name "* ]]; then
        continue
    fi
    names+=("$name")
    rm -f "$build/fuzz-corpus/$name.result"
done
printf '%s\n' "${names[@]}" | xargs -P "${FUZZ_JOBS:-$(nproc)}" -I{} bash -c 'fuzz_one "$1"' _ {}

total=0
failed=()
printf '%-26s %12s %8s %s\n' target executions corpus result
for name in "${names[@]}"; do
    if [ -f "$build/fuzz-corpus/$name.result" ]; then
        read -r _ execs corpus result <"$build/fuzz-corpus/$name.result"
    else
        execs=0 corpus=0 result="did not run"
    fi
    total=$((total + execs))
    [ "$result" = ok ] || failed+=("$name")
    printf '%-26s %12s %8s %s\n' "$name" "$execs" "$corpus" "$result"
done
echo "total executions: $total in $seconds s per target"
if [ ${#failed[@]} -gt 0 ]; then
    echo "crashed: ${failed[*]}" >&2
    exit 1
fi

#!/usr/bin/env bash
# The program's headline figures from two release builds in one run, alternating, so that the shared machine's moods
# fall on both: the explorer on a store of N runs (bench_explorer: start to chart, the slider step, the stalls of an
# import and a delete), the ladder (bench_ladder: warm and cold, N runs stored) and the import against pandas
# (import_vs_pandas.sh with the before build's CLI in each round). Used to show that a change of the build (issue 59:
# unity batches, lld, the compiler cache) left the program's figures where they were.
# Usage: tests/bench/before_after.sh BEFORE_BUILD AFTER_BUILD [ROUNDS (default 2)] [N (default 1000000)]
set -euo pipefail
before=$1
after=$2
rounds=${3:-2}
n=${4:-1000000}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen

# a store of n runs per side, each made once by that build's bench_explorer: a build refuses a store of a newer schema
# than its own, so that one store cannot serve two builds on either side of a migration
for side in before after; do
    build=$before
    [ "$side" = before ] || build=$after
    echo "# a store of $n runs, made by the $side build's bench_explorer"
    "$build/tests/bench/bench_explorer" "$n" --keep "$work/$side" --start >/dev/null
done
for round in $(seq "$rounds"); do
    for side in before after; do
        build=$before
        [ "$side" = before ] || build=$after
        echo "## round $round: $side ($build)"
        "$build/tests/bench/bench_explorer" "$n" --keep "$work/$side" |
            grep -E "start to first drawn chart|^slider step while dragging \(|^  of which|import of|deleting" | head -n 6
        PARETOSCOPE_BENCH_RECORDS=$n "$build/tests/bench/bench_ladder" --benchmark_filter='BM_LadderWarm$|BM_LadderCold' \
            2>/dev/null | grep '^BM_'
    done
done
echo "## the import against pandas, the before build's CLI in each round"
"$here/import_vs_pandas.sh" "$after" "$n" "$rounds" "$before/app/paretoscope-cli"

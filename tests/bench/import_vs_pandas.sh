#!/usr/bin/env bash
# Import N InferenceX aggregate records (default 1,000,000, one JSON array) into a new store with paretoscope-cli and,
# on the same file in the same run, with pandas (read_json then to_sql into SQLite): wall time and peak RSS of each,
# and the ratio. The two alternate, ROUNDS times each (default 3; this machine is shared and one run can be 20% off),
# and the medians are compared; so is each round's pair. With BEFORE_CLI (a paretoscope-cli built from an earlier
# commit) that one runs in each round too, on the same file, and its figures and the ratio of the two builds are
# printed: "before and after" in one run.
# Usage: tests/bench/import_vs_pandas.sh [BUILD_DIR] [N] [ROUNDS] [BEFORE_CLI]
set -euo pipefail
build=${1:-build}
n=${2:-1000000}
rounds=${3:-3}
before=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3 # Debian's interpreter, which sees python3-pandas

"$build/tests/bench/bench_generate_agg" "$work/agg.json" "$n"
sync # the generated file is written back now, not while either importer runs

measure() { # label, command...: prints "label wall_s rss_kb"
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >"$work/$label.out"
    read -r wall rss <"$work/time.txt"
    echo "$label $wall $rss"
}

cat >"$work/pandas_import.py" <<'PY'
import sqlite3, sys, pandas as pd
df = pd.read_json(sys.argv[1])
con = sqlite3.connect(sys.argv[2])
df.to_sql('runs', con, index=False, chunksize=50000)
con.commit()
print(len(df), 'rows')
PY

: >"$work/results.txt"
for round in $(seq 1 "$rounds"); do
    rm -f "$work"/ours.sqlite* "$work"/pandas.sqlite* "$work"/before.sqlite*
    sync # neither run pays for writing back what the other left
    if [ -n "$before" ]; then
        measure before "$before" import --db "$work/before.sqlite" "$work/agg.json" | tee -a "$work/results.txt"
        cat "$work/before.out"
        rm -f "$work"/before.sqlite*
        sync
    fi
    measure paretoscope "$build/app/paretoscope-cli" import --db "$work/ours.sqlite" "$work/agg.json" | tee -a "$work/results.txt"
    cat "$work/paretoscope.out"
    sync
    measure pandas "$py" "$work/pandas_import.py" "$work/agg.json" "$work/pandas.sqlite" | tee -a "$work/results.txt"
    cat "$work/pandas.out"
done

median() { # label, field (2 wall, 3 rss): the median over the rounds
    grep "^$1 " "$work/results.txt" | awk -v f="$2" '{print $f}' | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'
}
ow=$(median paretoscope 2)
orss=$(median paretoscope 3)
pw=$(median pandas 2)
prss=$(median pandas 3)
echo
printf '%-12s %16s %14s   (median of %s rounds)\n' "" "wall (s)" "peak RSS (MB)" "$rounds"
printf '%-12s %16.2f %14.0f\n' paretoscope "$ow" "$(echo "$orss / 1024" | bc -l)"
printf '%-12s %16.2f %14.0f\n' pandas "$pw" "$(echo "$prss / 1024" | bc -l)"
printf 'paretoscope is %.1fx faster than pandas on %s records\n' "$(echo "$pw / $ow" | bc -l)" "$n"
# the same ratio round by round: the two importers of a round run one right after the other, so a load on the
# machine that drifts during the script weighs on both alike
ours=$(grep '^paretoscope ' "$work/results.txt" | awk '{print $2}')
theirs=$(grep '^pandas ' "$work/results.txt" | awk '{print $2}')
paste <(echo "$ours") <(echo "$theirs") | awk '{print $2 / $1}' | sort -n >"$work/ratios.txt"
printf 'round by round: median %.1fx, from %.1fx to %.1fx\n' \
    "$(awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}' "$work/ratios.txt")" "$(head -1 "$work/ratios.txt")" \
    "$(tail -1 "$work/ratios.txt")"
if [ -n "$before" ]; then
    bw=$(median before 2)
    brss=$(median before 3)
    printf '%-12s %16.2f %14.0f   (%s)\n' before "$bw" "$(echo "$brss / 1024" | bc -l)" "$before"
    printf 'before: %.1fx faster than pandas; this build takes %.2fx the time of the one before\n' \
        "$(echo "$pw / $bw" | bc -l)" "$(echo "$ow / $bw" | bc -l)"
fi

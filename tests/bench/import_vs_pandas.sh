#!/usr/bin/env bash
# Import N InferenceX aggregate records (default 1,000,000, one JSON array) into a new store with paretoscope-cli and,
# on the same file in the same run, with pandas (read_json then to_sql into SQLite): wall time and peak RSS of each,
# and the ratio. Usage: tests/bench/import_vs_pandas.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-1000000}
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

ours=$(measure paretoscope "$build/app/paretoscope-cli" import --db "$work/ours.sqlite" "$work/agg.json")
cat "$work/paretoscope.out"
theirs=$(measure pandas "$py" -c "
import sqlite3, sys, pandas as pd
df = pd.read_json(sys.argv[1])
con = sqlite3.connect(sys.argv[2])
df.to_sql('runs', con, index=False, chunksize=50000)
con.commit()
print(len(df), 'rows')
" "$work/agg.json" "$work/pandas.sqlite")
cat "$work/pandas.out"

read -r _ ow orss <<<"$ours"
read -r _ pw prss <<<"$theirs"
echo
printf '%-12s %10s %14s\n' "" "wall (s)" "peak RSS (MB)"
printf '%-12s %10.2f %14.0f\n' paretoscope "$ow" "$(echo "$orss / 1024" | bc -l)"
printf '%-12s %10.2f %14.0f\n' pandas "$pw" "$(echo "$prss / 1024" | bc -l)"
printf 'paretoscope is %.1fx faster than pandas on %s records\n' "$(echo "$pw / $ow" | bc -l)" "$n"

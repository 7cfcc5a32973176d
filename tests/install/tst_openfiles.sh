#!/usr/bin/env bash
# `paretoscope FILE...` imports the files as a drop on the window does: the explorer's store ends up holding what
# paretoscope-cli import makes of the same files. Without a display: --screenshot draws offscreen by itself.
# Usage: tst_openfiles.sh GUI CLI FIXTURES_DIR
set -euo pipefail
gui=$1 cli=$2 fixtures=$3/inferencex-agg
[ -d "$fixtures" ] || { echo "no real fixtures at $fixtures: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
files=("$fixtures"/*.json)
[ ${#files[@]} -eq 3 ] || fail "expected the 3 InferenceX aggregate fixtures, found ${#files[@]}"

env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM XDG_DATA_HOME="$tmp/xdg" \
    "$gui" --db "$tmp/gui.sqlite" --screenshot "$tmp/shot.png" --size 1000x700 "${files[@]}" \
    || fail "paretoscope --screenshot with files: exit $?"
[ -s "$tmp/shot.png" ] || fail "no screenshot"
"$cli" import --db "$tmp/cli.sqlite" "${files[@]}" >"$tmp/import.jsonl" || fail "paretoscope-cli import: exit $?"

"$cli" scopes --db "$tmp/gui.sqlite" --format json >"$tmp/gui-scopes.json"
"$cli" scopes --db "$tmp/cli.sqlite" --format json >"$tmp/cli-scopes.json"
diff "$tmp/cli-scopes.json" "$tmp/gui-scopes.json" || fail "the explorer's import differs from the CLI's"
# each fixture is one run (one concurrency level): three in all
runs=$(python3 -c 'import json,sys; print(sum(s["runs"] for s in json.load(open(sys.argv[1]))))' "$tmp/gui-scopes.json")
[ "$runs" -eq 3 ] || fail "the explorer imported $runs runs, not 3"
echo "paretoscope FILE... imported $runs runs, as paretoscope-cli import does"

#!/usr/bin/env bash
# Help and version without a display, and the explorer's one line when there is no display.
# Usage: tst_nodisplay.sh GUI CLI ENGINE_SIM PROBE VERSION
set -euo pipefail
gui=$1 cli=$2 sim=$3 probe=$4 version=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nodisplay=(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM XDG_DATA_HOME="$tmp/xdg")
fail() { echo "FAIL: $*"; exit 1; }

"${nodisplay[@]}" "$gui" --help >"$tmp/out" 2>"$tmp/err" || fail "paretoscope --help: exit $? ($(cat "$tmp/err"))"
for option in --db --screenshot --size --tab --view --version; do
    grep -q -- "$option" "$tmp/out" || fail "paretoscope --help does not list $option"
done
grep -q "FILE\.\.\." "$tmp/out" || fail "paretoscope --help does not name the FILE arguments"
grep -q -- "--man" "$tmp/out" && fail "paretoscope --help lists the hidden --man"
[ "$("${nodisplay[@]}" "$gui" --version)" = "Paretoscope $version (licence Apache-2.0)" ] || fail "paretoscope --version"

set +e
"${nodisplay[@]}" "$gui" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "paretoscope without a display: exit $rc, not 1"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "paretoscope without a display says more than one line: $(cat "$tmp/err")"
grep -q "no display" "$tmp/err" || fail "paretoscope without a display does not say so: $(cat "$tmp/err")"
[ ! -e "$tmp/xdg" ] || fail "paretoscope without a display created its store"

"${nodisplay[@]}" "$cli" help >"$tmp/out" || fail "paretoscope-cli help: exit $?"
grep -q "^  ladder " "$tmp/out" || fail "paretoscope-cli help does not list ladder"
[ "$("${nodisplay[@]}" "$cli" --version)" = "paretoscope-cli $version (licence Apache-2.0)" ] || fail "paretoscope-cli --version"
[ "$("$sim" --version)" = "paretoscope-engine-sim $version (licence Apache-2.0)" ] || fail "paretoscope-engine-sim --version"
[ "$("$probe" --version)" = "paretoscope-probe $version (licence Apache-2.0)" ] || fail "paretoscope-probe --version"
"$probe" --help | grep -q -- "--save" || fail "paretoscope-probe --help"
echo "help and version without a display: ok"

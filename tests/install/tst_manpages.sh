#!/usr/bin/env bash
# The man pages the build wrote render without warnings, and list what --help lists: every command of the CLI's
# table (as `help` prints them) and every option of the explorer.
# Usage: tst_manpages.sh MAN_DIR GUI CLI
set -euo pipefail
mandir=$1 gui=$2 cli=$3
command -v groff >/dev/null || { echo "groff is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
render() { LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -b -P-cbou "$1" 2>"$tmp/warnings"; }

for program in paretoscope paretoscope-cli paretoscope-engine-sim paretoscope-probe; do
    page=$mandir/$program.1
    [ -s "$page" ] || fail "no man page $page"
    render "$page" >"$tmp/$program.txt"
    [ ! -s "$tmp/warnings" ] || fail "$program.1: groff warns: $(cat "$tmp/warnings")"
    for section in NAME SYNOPSIS DESCRIPTION "SEE ALSO"; do
        grep -q "^$section" "$tmp/$program.txt" || fail "$program.1 has no $section"
    done
    grep -q "^ *$program " "$tmp/$program.txt" || fail "$program.1 does not name $program"
done

commands=$(env -u DISPLAY "$cli" help | sed -n 's/^  \([a-z]\+\) .*/\1/p' | sort -u)
[ "$(wc -w <<<"$commands")" -ge 10 ] || fail "could not read the commands from paretoscope-cli help"
for c in $commands; do
    grep -q "^\.SS $c$" "$mandir/paretoscope-cli.1" || fail "paretoscope-cli.1 has no section for $c"
    grep -q "^   $c$" "$tmp/paretoscope-cli.txt" || fail "paretoscope-cli.1 does not show the heading $c"
done
# options are printed with an ASCII hyphen, so that they can be copied from the page
for option in --db --model --isl --osl --targets --format; do
    grep -q -- "$option" "$tmp/paretoscope-cli.txt" || fail "paretoscope-cli.1 does not show $option"
done
for option in $(env -u DISPLAY "$gui" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$option" "$tmp/paretoscope.txt" || fail "paretoscope.1 does not list $option"
done
echo "man pages: $(wc -w <<<"$commands") commands of paretoscope-cli, every option of paretoscope"

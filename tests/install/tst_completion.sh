#!/usr/bin/env bash
# The bash completion of paretoscope-cli: the commands of `help`, a command's options, and the model and hardware
# names of the store (here a seeded --db, checked against `scopes`).
# Usage: tst_completion.sh COMPLETION_SCRIPT CLI
set -euo pipefail
script=$1 cli=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# complete WORD... : what the completion offers for the last word
complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _paretoscope_cli
             printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$cli" "${@}" | sort
}

commands=$(env -u DISPLAY "$cli" help | sed -n 's/^  \([a-z]\+\) .*/\1/p' | sort -u)
offered=$(complete_words "")
for c in $commands help; do
    grep -qx "$c" <<<"$offered" || fail "no completion of the command $c"
done
[ "$(complete_words la)" = ladder ] || fail "'la' does not complete to ladder"
grep -qx -- --model <<<"$(complete_words ladder --mo)" || fail "'ladder --mo' does not offer --model"
grep -qx -- --targets <<<"$(complete_words ladder --)" || fail "'ladder --' does not offer --targets"
grep -qx -- --demand <<<"$(complete_words ladder --)" && fail "'ladder --' offers plan's --demand"

"$cli" seed --db "$tmp/store.sqlite" >/dev/null
"$cli" scopes --db "$tmp/store.sqlite" --format json >"$tmp/scopes.json"
models=$(python3 -c 'import json,sys; print("\n".join(sorted({s["model"] for s in json.load(open(sys.argv[1]))})))' "$tmp/scopes.json")
hardware=$(python3 -c 'import json,sys; print("\n".join(sorted({h for s in json.load(open(sys.argv[1])) for h in s["hardware"]})))' "$tmp/scopes.json")
[ -n "$models" ] && [ -n "$hardware" ] || fail "the seeded store has no models or hardware"
[ "$(complete_words ladder --db "$tmp/store.sqlite" --model "")" = "$models" ] || fail "--model does not offer the store's models"
[ "$(complete_words ladder --db "$tmp/store.sqlite" --hardware "")" = "$hardware" ] || fail "--hardware does not offer the store's hardware"
[ -z "$(complete_words ladder --db "$tmp/none.sqlite" --model "")" ] || fail "a missing store offers models"
[ ! -e "$tmp/none.sqlite" ] || fail "completing created a store"
echo "completion: $(wc -w <<<"$commands") commands, $(wc -l <<<"$models") models, $(wc -l <<<"$hardware") hardware"

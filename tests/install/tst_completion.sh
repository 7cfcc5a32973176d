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

# Names are data: a store whose model and hardware names hold $(...), backticks, quotes, blanks, line breaks and
# globs completes each of them back exactly (the inserted word, read by bash, is the name), and runs nothing.
mark="$tmp/ran"
python3 - "$tmp/hostile.json" "$mark" <<'PY'
import json, sys
out, mark = sys.argv[1], sys.argv[2]
models = ["$(touch %s-1)" % mark, "`touch %s-2`" % mark, "a model with blanks", "it's \"quoted\"",
          "line\n$(touch %s-3)" % mark, "star*", "[glob]?", "tab\there"]
hardware = ["hw$(touch %s-4)" % mark, "hw`touch %s-5`" % mark, "hw;echo"]
rows = []
for i, m in enumerate(models):
    rows.append({"schema": "paretoscope.run/1", "model": m, "hardware": hardware[i % len(hardware)], "engine": "vllm",
                 "precision": "fp4", "isl": 1024, "osl": 1024, "concurrency": 4, "tput_per_gpu_tok_s": 1000.0,
                 "interactivity_tok_s_user": 50.0})
json.dump(rows, open(out, "w"))
with open(out + ".models", "w") as f:
    f.write("\0".join(sorted(models)) + "\0")
PY
"$cli" import --db "$tmp/hostile.sqlite" "$tmp/hostile.json" >/dev/null || fail "the hostile names were not imported"
# what bash reads back from each word completion would insert, NUL-separated and sorted
completed_names() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _paretoscope_cli
             for w in "${COMPREPLY[@]}"; do eval "n=$w"; printf "%s\0" "$n"; done' _ "$script" "$cli" "${@}" |
        sort -z
}
completed_names ladder --db "$tmp/hostile.sqlite" --model "" >"$tmp/got.models"
cmp -s "$tmp/got.models" <(sort -z "$tmp/hostile.json.models") ||
    fail "--model does not complete the hostile names back exactly: $(tr '\0' '|' <"$tmp/got.models")"
stored_hardware=$("$cli" __complete hardware --db "$tmp/hostile.sqlite" | sort -z | tr '\0' '|')
[ "$(completed_names ladder --db "$tmp/hostile.sqlite" --hardware "" | tr '\0' '|')" = "$stored_hardware" ] ||
    fail "--hardware does not complete the stored names back exactly"
prefix='hw\`' # typed as a person types it: the backtick escaped
got=$(completed_names ladder --db "$tmp/hostile.sqlite" --baseline "$prefix" | tr '\0' '|')
want="hw\`touch $mark-5\`|"
want=${want,,} # hardware names are stored as lower-case keys
[ "$got" = "$want" ] || fail "a typed prefix with a backslash does not narrow to the one hardware: $got"
[ "$(completed_names ladder --db "$tmp/hostile.sqlite" --model 'a\ mo' | tr '\0' '|')" = "a model with blanks|" ] ||
    fail "a typed prefix with an escaped blank does not narrow to the one model"
for n in 1 2 3 4 5; do
    [ ! -e "$mark-$n" ] || fail "completing a name ran it ($mark-$n exists)"
done
ls "$tmp" | grep -q '^ran' && fail "completing a name ran something: $(ls "$tmp")"

echo "completion: $(wc -w <<<"$commands") commands, $(wc -l <<<"$models") models, $(wc -l <<<"$hardware") hardware;" \
    "8 hostile models and 3 hostile hardware names completed back exactly, nothing run"

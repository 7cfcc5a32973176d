# bash completion for paretoscope-cli: its commands and each command's options, from the program's own command table
# (the hidden `paretoscope-cli __complete`), and the model and hardware names in the store (--db, or the default one).
# Names are data: they arrive NUL-separated and go back quoted by printf %q, never through compgen -W (which would
# expand a $(...) or a backtick in a name) or word splitting.
_paretoscope_cli_names()
{
    local cli=$1 what=$2 cur=$3 name quotedName
    shift 3
    COMPREPLY=()
    while IFS= read -r -d '' name; do
        printf -v quotedName '%q' "$name"
        if [[ $name == "$cur"* || $quotedName == "$cur"* ]]; then
            COMPREPLY+=("$quotedName")
        fi
    done < <("$cli" __complete "$what" "$@" 2>/dev/null)
    compopt +o filenames 2>/dev/null # the words are quoted already
}

_paretoscope_cli()
{
    local cur prev words cword
    _init_completion 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    }
    local cli=${words[0]}
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$("$cli" __complete commands 2>/dev/null) --version" -- "$cur"))
        return
    fi
    local command=${words[1]} db=() i
    for ((i = 2; i < cword; i++)); do
        if [[ ${words[i]} == --db && $((i + 1)) -lt $cword ]]; then
            db=(--db "${words[i + 1]}")
        fi
    done
    case $prev in
        --model)
            _paretoscope_cli_names "$cli" models "$cur" "${db[@]}"
            return
            ;;
        --hardware | --baseline)
            _paretoscope_cli_names "$cli" hardware "$cur" "${db[@]}"
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W "json csv table" -- "$cur"))
            return
            ;;
        --metric)
            COMPREPLY=($(compgen -W "total input output tok-per-mw j-per-token measured-j-per-token" -- "$cur"))
            return
            ;;
        --db | --to | --matrix | --tco | --recipe-file | --emit-sbatch | --engine-log)
            COMPREPLY=($(compgen -f -- "$cur"))
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$cli" __complete options "$command" 2>/dev/null)" -- "$cur"))
        return
    fi
    if [[ $command == import || $command == cluster ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _paretoscope_cli paretoscope-cli

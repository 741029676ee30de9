# bash completion for fleetcom. Load it from ~/.bashrc with
#   eval "$(fleetcom completion bash)"
# (fleetcom init bash includes it). The candidates come from the binary:
# "fleetcom __complete -- WORDS..." prints one "value<TAB>description" per
# line, or the line ":dirs" when the word is a directory name. Bash shows
# values only.

_fleetcom() {
    local cur=${COMP_WORDS[COMP_CWORD]} line dir out
    COMPREPLY=()
    out=$(@FLEETCOM@ __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
    while IFS= read -r line; do
        case $line in
        '') ;;
        :dirs)
            # Let readline quote the names and append the slash.
            compopt -o filenames 2>/dev/null
            while IFS= read -r dir; do
                COMPREPLY+=("$dir")
            done < <(compgen -d -- "$cur")
            ;;
        *) COMPREPLY+=("${line%%$'\t'*}") ;;
        esac
    done <<<"$out"
    return 0
}

# nosort keeps the newest session first; bash before 4.4 lacks it.
complete -o nosort -F _fleetcom fleetcom 2>/dev/null || complete -F _fleetcom fleetcom

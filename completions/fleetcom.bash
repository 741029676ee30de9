# bash completion for fleetcom. Load it from ~/.bashrc with
#   eval "$(fleetcom completion bash)"
# (fleetcom init bash includes it). The candidates come from the binary:
# "fleetcom __complete -- WORDS..." prints one "value<TAB>description" per
# line, or the line ":dirs" when the word is a directory name.
#
# Bash has no descriptions of its own. When it will list several
# candidates, each is shown as "value  (description)", one per line, so a
# conversation's tool, age and title stand beside its ID; the
# values differ before the descriptions begin, so what bash inserts (their
# common prefix) is never part of one. A single candidate is the bare value,
# inserted as is.

_fleetcom() {
    local cur=${COMP_WORDS[COMP_CWORD]} line dir out value desc width=0 cols=${COLUMNS:-80}
    local -a values descs
    COMPREPLY=()
    out=$(@FLEETCOM@ __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
    while IFS= read -r line; do
        case $line in
        '') ;;
        :dirs)
            # Let readline quote the names and append the slash, and sort
            # them: the nosort this completion is registered with keeps the
            # newest conversation first, not directories in readdir order.
            compopt -o filenames +o nosort 2>/dev/null
            while IFS= read -r dir; do
                COMPREPLY+=("$dir")
            done < <(compgen -d -- "$cur" | LC_ALL=C sort)
            return 0
            ;;
        *)
            value=${line%%$'\t'*}
            desc=
            [[ $line == *$'\t'* ]] && desc=${line#*$'\t'}
            # A name with spaces or quotes goes in quoted.
            [[ $value == *[[:space:]\'\"\\\$\`\;\&\|\<\>\(\)\*\?\[]* ]] && printf -v value '%q' "$value"
            values+=("$value")
            descs+=("$desc")
            (( ${#value} > width )) && width=${#value}
            ;;
        esac
    done <<<"$out"
    if (( ${#values[@]} == 1 )); then
        COMPREPLY=("${values[0]}")
        return 0
    fi
    local i entry
    for i in "${!values[@]}"; do
        entry=${values[i]}
        if [[ -n ${descs[i]} ]]; then
            printf -v entry '%-*s  (%s)' "$width" "${values[i]}" "${descs[i]}"
            # Cut to the terminal's width, or padded to it: one per line.
            if (( ${#entry} >= cols )); then
                entry="${entry:0:cols-2})"
            else
                printf -v entry '%-*s' "$((cols - 1))" "$entry"
            fi
        fi
        COMPREPLY+=("$entry")
    done
    return 0
}

# nosort keeps the newest session first; bash before 4.4 lacks it.
complete -o nosort -F _fleetcom fleetcom 2>/dev/null || complete -F _fleetcom fleetcom

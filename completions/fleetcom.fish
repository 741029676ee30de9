# fish completion for fleetcom. Load it from config.fish with
#   fleetcom completion fish | source
# (fleetcom init fish includes it), or save it as
# ~/.config/fish/completions/fleetcom.fish. The candidates come from the
# binary: "fleetcom __complete -- WORDS..." prints one "value<TAB>description"
# per line, which is fish's own format, or the line ":dirs" when the word is
# a directory name.

function __fleetcom_complete
    set -l cur (commandline -ct)
    set -l words (commandline -opc)[2..-1] "$cur"
    for line in (@FLEETCOM@ __complete -- $words 2>/dev/null)
        if test "$line" = :dirs
            __fish_complete_directories "$cur"
            return
        end
        printf '%s\n' $line
    end
end

complete -c fleetcom -e
# -k keeps the order given: the newest session first.
complete -c fleetcom -f -k -a '(__fleetcom_complete)'

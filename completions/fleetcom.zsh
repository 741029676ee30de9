#compdef fleetcom
# zsh completion for fleetcom. Load it from ~/.zshrc with
#   eval "$(fleetcom completion zsh)"
# (fleetcom init zsh includes it), or save it as _fleetcom in a directory
# on $fpath. The candidates come from the binary: "fleetcom __complete --
# WORDS..." prints one "value<TAB>description" per line, or the line ":dirs"
# when the word is a directory name.

_fleetcom() {
  local -a lines items
  local line value desc
  lines=("${(@f)$(@FLEETCOM@ __complete -- "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
  for line in "${lines[@]}"; do
    case $line in
      ('') ;;
      (:dirs) _directories; return ;;
      (*$'\t'*)
        value=${line%%$'\t'*}
        # _describe reads backslashes in descriptions as escapes: double
        # them, so a title holding C:\new\dir shows as written.
        desc=${line#*$'\t'}
        items+=("${value//:/\\:}:${desc//\\/\\\\}") ;;
      (*) items+=("${line//:/\\:}") ;;
    esac
  done
  # -V keeps the order given: the newest session first.
  (( $#items )) && _describe -V -t fleetcom fleetcom items
}

if [[ $funcstack[1] == _fleetcom ]]; then
  # Autoloaded from $fpath by compinit: this is the first completion.
  _fleetcom "$@"
elif (( $+functions[compdef] )); then
  compdef _fleetcom fleetcom
else
  # compinit has not run yet: register once it has.
  autoload -Uz add-zsh-hook
  _fleetcom_compdef() {
    (( $+functions[compdef] )) || return 0
    compdef _fleetcom fleetcom
    add-zsh-hook -d precmd _fleetcom_compdef
    unfunction _fleetcom_compdef
  }
  add-zsh-hook precmd _fleetcom_compdef
fi

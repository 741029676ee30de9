package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The code `fleetcom init SHELL` prints is sourced by every new shell, so
// it must be cheap and safe to run again. It moves the shim directory to
// the front of PATH (removing every other copy, never adding a second one)
// and defines the completions inline, without running fleetcom again.
//
// Moving it once is not enough: what runs after the rc file can put another
// directory in front. Debian's ~/.profile reads ~/.bashrc and then puts
// ~/.local/bin first, where Claude Code's installer keeps claude; macOS runs
// path_helper in /etc/zprofile; `brew shellenv` and version managers
// prepend too. So, as mise's activate does, a prompt hook (bash
// PROMPT_COMMAND, zsh precmd, fish's fish_prompt event) puts the shim
// directory first again before every prompt. It is pure shell, forks
// nothing, keeps $? for the prompt, and when the directory already leads
// PATH it costs two pattern matches.

// posixHook defines __fleetcom_path for bash and zsh: the same code runs
// in both.
const posixHook = `# fleetcom: the shim directory first on PATH, exactly once; again before
# every prompt, in case the startup files or a version manager put another
# directory in front since.
__fleetcom_path() {
  local __fleetcom_status=$? __fleetcom_dir=@DIR@ __fleetcom_rest
  case ":${PATH-}:" in
  ":$__fleetcom_dir:"*":$__fleetcom_dir:"*) ;;
  ":$__fleetcom_dir:"*) return "$__fleetcom_status" ;;
  esac
  __fleetcom_rest=":${PATH-}:"
  while [[ $__fleetcom_rest == *":$__fleetcom_dir:"* ]]; do
    __fleetcom_rest=${__fleetcom_rest/":$__fleetcom_dir:"/:}
  done
  __fleetcom_rest=${__fleetcom_rest#:}
  __fleetcom_rest=${__fleetcom_rest%:}
  export PATH="$__fleetcom_dir${__fleetcom_rest:+:$__fleetcom_rest}"
  return "$__fleetcom_status"
}
__fleetcom_path
`

// bashRegister runs the hook last of PROMPT_COMMAND (a string, or an array
// from bash 5.1), once; hooks that other tools prepend later still run
// before it.
const bashRegister = `if [[ ${PROMPT_COMMAND[*]-} != *__fleetcom_path* ]]; then
  if [[ ${PROMPT_COMMAND+set} && ${#PROMPT_COMMAND[@]} -gt 1 ]]; then
    PROMPT_COMMAND+=(__fleetcom_path)
  else
    PROMPT_COMMAND="${PROMPT_COMMAND:+$PROMPT_COMMAND
}__fleetcom_path"
  fi
fi
`

// zshRegister adds the hook to the end of precmd_functions, once.
const zshRegister = `if [[ -z ${precmd_functions[(r)__fleetcom_path]+1} ]]; then
  precmd_functions+=(__fleetcom_path)
fi
`

// posixFr defines fr in bash and zsh.
const posixFr = `
# fleetcom: fr resumes (fr, fr TOOL, fr ID: as fleetcom resume takes them)
# and, with nothing to resume, says so and fails, where a bare
# eval "$(fleetcom resume)" would quietly do nothing. Yours wins if you
# have one.
if ! type fr >/dev/null 2>&1; then
  fr() {
    local __fleetcom_line
    __fleetcom_line=$(@EXE@ resume "$@") || return
    eval "$__fleetcom_line"
  }
fi
`

// fishInit puts @DIR@ first on PATH in fish, now and before every prompt,
// and defines fr. Redefining the function replaces its event handler, so
// sourcing this twice leaves one.
const fishInit = `# fleetcom: the shim directory first on PATH, exactly once; again before
# every prompt, in case the startup files put another directory in front.
function __fleetcom_path --on-event fish_prompt --description 'fleetcom: keep the shim directory first on PATH'
    set -l __fleetcom_status $status
    set -l __fleetcom_dir @DIR@
    if test "$PATH[1]" = "$__fleetcom_dir"; and not contains -- $__fleetcom_dir $PATH[2..-1]
        return $__fleetcom_status
    end
    while set -l __fleetcom_i (contains -i -- $__fleetcom_dir $PATH)
        set -e PATH[$__fleetcom_i]
    end
    set -gx PATH $__fleetcom_dir $PATH
    return $__fleetcom_status
end
__fleetcom_path

# fleetcom: fr resumes (fr, fr TOOL, fr ID: as fleetcom resume takes them)
# and, with nothing to resume, says so and fails. Yours wins if you have one.
if not functions -q fr; and not command -q fr
    function fr --description 'resume a saved conversation'
        set -l __fleetcom_line (@EXE@ resume $argv); or return
        eval $__fleetcom_line
    end
end
`

func cmdInit(in input) error {
	shell, err := shellArg("init", in.args)
	if err != nil {
		return err
	}
	exe, err := selfPath()
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(resolvePaths().ShimDir)
	if err != nil {
		return fmt.Errorf("resolve the shim directory: %w", err)
	}
	var code string
	switch shell {
	case "fish":
		code = fishInit
	case "zsh":
		code = posixHook + zshRegister + posixFr
	default:
		code = posixHook + bashRegister + posixFr
	}
	script, _ := completions.Script(shell, safe.Quote(exe))
	code = strings.NewReplacer("@DIR@", safe.Quote(dir), "@EXE@", safe.Quote(exe)).Replace(code)
	fmt.Fprint(stdout, code, "\n", script)
	return nil
}

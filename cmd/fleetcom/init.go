package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The code `fleetcom init SHELL` prints is sourced by every new shell, so
// it must be cheap and safe to run again: it moves the shim directory to
// the front of PATH (removing every other copy, never adding a second one)
// and defines the completions inline, without running fleetcom again.

// posixPath puts @DIR@ first on PATH in bash and zsh.
const posixPath = `# fleetcom: the shim directory first on PATH, exactly once.
__fleetcom_dir=@DIR@
__fleetcom_rest=":${PATH}:"
while [[ $__fleetcom_rest == *":${__fleetcom_dir}:"* ]]; do
  __fleetcom_rest=${__fleetcom_rest/":${__fleetcom_dir}:"/:}
done
__fleetcom_rest=${__fleetcom_rest#:}
__fleetcom_rest=${__fleetcom_rest%:}
export PATH="${__fleetcom_dir}${__fleetcom_rest:+:${__fleetcom_rest}}"
unset __fleetcom_dir __fleetcom_rest

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

// fishPath puts @DIR@ first on PATH in fish.
const fishPath = `# fleetcom: the shim directory first on PATH, exactly once.
set -l __fleetcom_dir @DIR@
while set -l __fleetcom_i (contains -i -- $__fleetcom_dir $PATH)
    set -e PATH[$__fleetcom_i]
end
set -gx PATH $__fleetcom_dir $PATH

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
	code := posixPath
	if shell == "fish" {
		code = fishPath
	}
	script, _ := completions.Script(shell, safe.Quote(exe))
	code = strings.NewReplacer("@DIR@", safe.Quote(dir), "@EXE@", safe.Quote(exe)).Replace(code)
	fmt.Fprint(stdout, code, "\n", script)
	return nil
}

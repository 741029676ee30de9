// Package completions holds fleetcom's shell completion scripts, one real
// shell file per shell, embedded in the binary. Each script asks the binary
// itself for candidates (fleetcom __complete -- WORDS…) and only presents
// them, so the rules live in Go and are the same in every shell.
//
// A script names the binary by the placeholder Placeholder, which the
// completion command replaces with the running executable's path, quoted
// for that shell. This package does no I/O and imports nothing of fleetcom.
package completions

import (
	_ "embed"
	"strings"
)

// Placeholder stands for the quoted path of the fleetcom binary in every
// script.
const Placeholder = "@FLEETCOM@"

//go:embed fleetcom.bash
var bash string

//go:embed fleetcom.zsh
var zsh string

//go:embed fleetcom.fish
var fish string

// Shells lists the shells a script exists for, in a fixed order.
func Shells() []string { return []string{"bash", "zsh", "fish"} }

// Script returns the completion script of a shell with quotedExe, the
// binary's path already quoted for that shell, in place of Placeholder; ok
// is false for a shell without one.
func Script(shell, quotedExe string) (script string, ok bool) {
	switch shell {
	case "bash":
		script = bash
	case "zsh":
		script = zsh
	case "fish":
		script = fish
	default:
		return "", false
	}
	return strings.ReplaceAll(script, Placeholder, quotedExe), true
}

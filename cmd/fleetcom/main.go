// Command fleetcom keeps agent CLI conversations resumable. Run under the
// name of a tool (a shim symlink named claude, codex or grok) it is that
// tool's shim; under any other name it is the fleetcom command.
package main

import (
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args))
}

// run dispatches on the name the binary was started under and returns the
// exit status; it is the only caller of os.Exit's argument.
func run(args []string) int {
	if len(args) == 0 {
		return 2
	}
	switch name := filepath.Base(args[0]); name {
	case "claude", "codex", "grok":
		return shimMode(name, args)
	}
	return command(args[1:])
}

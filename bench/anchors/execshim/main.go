// Command execshim is the minimal Go exec shim anchor: installed under a tool's
// name, it finds the next program of that name on PATH that is not itself and
// replaces itself with it. Build it static (CGO_ENABLED=0).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

func main() {
	name := filepath.Base(os.Args[0])
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "execshim:", err)
		os.Exit(127)
	}
	me, err := os.Stat(self)
	if err != nil {
		fmt.Fprintln(os.Stderr, "execshim:", err)
		os.Exit(127)
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 || os.SameFile(fi, me) {
			continue
		}
		err = syscall.Exec(p, os.Args, os.Environ())
		fmt.Fprintln(os.Stderr, "execshim:", err)
		os.Exit(126)
	}
	fmt.Fprintf(os.Stderr, "execshim: no %s on PATH\n", name)
	os.Exit(127)
}

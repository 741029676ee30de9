package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/shim"
)

func cmdExport(in input) error {
	tool, ref, err := toolAndRef("export", in.args)
	if err != nil {
		return err
	}
	if ref == "" {
		return mustCommand("export").misuse("export needs the id (or a prefix) of the conversation")
	}
	out := in.get("-o")
	if f, ok := stdout.(*os.File); out == "" && ok && term.IsTerminal(int(f.Fd())) {
		return usageError{msg: "a bundle is not for the terminal", hint: "write it with -o FILE, or pipe it: fleetcom export " + ref + " | ssh HOST fleetcom import"}
	}
	dir, cat, err := catalogAt(in.get("-C"))
	if err != nil {
		return err
	}
	b, err := cat.Export(tool, ref, dir)
	if err != nil {
		return err
	}
	if b.CLIVersion == "" {
		if a, ok := agents.Named(b.Tool); ok {
			p := resolvePaths()
			if real, err := shim.FindReal(a, settings(), p.ConfigFile, p.ShimDir); err == nil {
				b.CLIVersion = harness.Version(a, real, p.CacheDir) // known, never asked: see doctor
			}
		}
	}
	if out == "" {
		return catalog.WriteBundle(stdout, b)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = catalog.WriteBundle(tmp, b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), out)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	hintf("exported %s conversation %s to %s; on the other machine: fleetcom import -C DIR %s", b.Tool, b.ID, out, safe.Quote(filepath.Base(out)))
	return nil
}

func cmdImport(in input) error {
	if len(in.args) > 1 {
		return mustCommand("import").misuse("import takes at most one file")
	}
	dir, err := targetDir(in.get("-C"))
	if err != nil {
		if _, serr := os.Stat(in.get("-C")); in.has("-C") && errors.Is(serr, fs.ErrNotExist) {
			return usageError{msg: err.Error(), hint: "create it first, then import again: mkdir -p " + safe.Quote(in.get("-C"))}
		}
		return err
	}
	var r io.Reader = os.Stdin
	name := "standard input"
	if len(in.args) == 1 && in.args[0] != "-" {
		f, err := safe.Open(in.args[0], 0)
		if err != nil {
			return notFoundError{msg: fmt.Sprintf("read bundle: %v", err)}
		}
		defer f.Close()
		r, name = f, in.args[0]
	} else if term.IsTerminal(int(os.Stdin.Fd())) {
		return usageError{msg: "import reads a bundle from a file or a pipe, not the terminal",
			hint: "fleetcom import FILE, or: fleetcom export ID | ssh HOST fleetcom import -C DIR"}
	}
	b, a, err := catalog.ReadBundle(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	rec, already, err := cat.Import(b, a, dir)
	if err != nil {
		return err
	}
	verb := "imported"
	if already {
		verb = "already imported"
	}
	fmt.Fprintf(stdout, "%s %s %s %s\n", verb, rec.Tool, rec.ID, printable(rec.Cwd))
	return nil
}

func cmdMove(in input) error {
	from, to := in.get("--from"), in.get("--to")
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	keep := in.has("--keep")
	if in.has("--from") || in.has("--to") {
		switch {
		case from == "":
			return usageError{msg: "move --to needs --from OLD: the directory whose conversations move", hint: "fleetcom move --from OLD --to " + safe.Quote(to)}
		case to == "":
			return usageError{msg: "move --from needs --to NEW: the directory the conversations move to", hint: "fleetcom move --from " + safe.Quote(from) + " --to NEW"}
		case len(in.args) > 0:
			return usageError{msg: "move --from OLD --to NEW moves every conversation of OLD: it takes no conversation besides", hint: "to move one conversation: fleetcom move ID DIR"}
		}
		// The old directory is often gone (renamed): its recorded form is
		// its absolute path.
		old, err := safe.Physical(from)
		if err != nil {
			return usagef("%v", err)
		}
		dir, err := targetDir(to)
		if err != nil {
			return err
		}
		moved, errs := cat.MoveDir(old, dir, keep)
		for _, m := range moved {
			reportMoved(m)
		}
		if len(moved) == 0 && len(errs) == 0 {
			return notFoundError{msg: "no conversation recorded or found for " + old, hint: "run 'fleetcom list -C DIR' on the old directory's path"}
		}
		for _, err := range errs[min(1, len(errs)):] {
			report(err)
		}
		if len(errs) > 0 {
			return errs[0]
		}
		return nil
	}
	if len(in.args) < 2 {
		return mustCommand("move").misuse("move needs the conversation and the directory to move it to")
	}
	tool, ref, err := toolAndRef("move", in.args[:len(in.args)-1])
	if err != nil {
		return err
	}
	dir, err := targetDir(in.args[len(in.args)-1])
	if err != nil {
		return err
	}
	here, err := targetDir("")
	if err != nil {
		return err
	}
	m, err := cat.Move(tool, ref, here, dir, keep)
	if err != nil {
		return err
	}
	reportMoved(m)
	return nil
}

// reportMoved prints one moved conversation on stdout, and its agent's note
// for the user on stderr.
func reportMoved(m catalog.Moved) {
	fmt.Fprintf(stdout, "moved %s %s %s\n", m.Tool, m.ID, printable(m.Cwd))
	if m.Unchecked != "" {
		warnf("could not check %s: make sure no %s has %s open", m.Unchecked, m.Tool, m.ID)
	}
	if len(m.Left) > 0 {
		warnf("%s conversation %s moved, but %d file(s) of its old copy changed while it moved and were left where they were: %s",
			m.Tool, m.ID, len(m.Left), strings.Join(m.Left, ", "))
	}
	if m.Note != "" {
		hintf("%s", m.Note)
	}
}

// toolAndRef reads [TOOL] ID|PREFIX.
func toolAndRef(cmd string, args []string) (string, string, error) {
	var tool string
	if len(args) > 0 {
		if _, ok := agents.Named(args[0]); ok {
			tool, args = args[0], args[1:]
		}
	}
	switch len(args) {
	case 0:
		return tool, "", nil
	case 1:
		return tool, args[0], nil
	}
	return "", "", mustCommand(cmd).misuse("%s takes at most a tool and one id", cmd)
}

package harnesstest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// LogStarts is the start of a script that logs each start of the binary
// to log, with its arguments.
func LogStarts(log string) string {
	return "#!/bin/sh\necho \"$*\" >> " + safe.Quote(log) + "\n"
}

// CountStarts counts the starts LogStarts logged to log.
func CountStarts(log string) int {
	b, _ := os.ReadFile(log)
	return strings.Count(string(b), "\n")
}

// NPMBinary lays out an npm install of pkg at version, whose command name
// runs bin/<name>-file, as node_modules/.bin/<name> links to it, and returns
// the link. The file logs its starts to <prefix>/starts.
func NPMBinary(t *testing.T, pkg, name, version string) string {
	t.Helper()
	prefix := t.TempDir()
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg))
	WriteExec(t, filepath.Join(dir, "bin", name+"-file"), LogStarts(filepath.Join(prefix, "starts")))
	manifest, _ := json.Marshal(map[string]any{"name": pkg, "version": version, "bin": map[string]string{name: "bin/" + name + "-file"}})
	os.WriteFile(filepath.Join(dir, "package.json"), manifest, 0o644)
	link := filepath.Join(prefix, "node_modules", ".bin", name)
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(filepath.Join("..", filepath.FromSlash(pkg), "bin", name+"-file"), link); err != nil {
		t.Fatal(err)
	}
	return link
}

// WriteExec writes an executable file at p, making its folders.
func WriteExec(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testexec.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

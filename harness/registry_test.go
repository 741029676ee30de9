package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The registry's promise: an agent is its own files, harness/<name>*.go.
// These tests hold it from both sides: the package builds without any one
// agent's files, and no agent file steps around its own grammar.

// agentFiles returns the non-test Go files of this package, by the agent
// whose name they begin with ("" for the files every agent shares).
func agentFiles(t *testing.T) map[string][]string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		out[ownerOf(n)] = append(out[ownerOf(n)], n)
	}
	return out
}

// ownerOf is the agent a file of this package belongs to, by its name.
func ownerOf(file string) string {
	for _, name := range Names() {
		if strings.HasPrefix(file, name) {
			return name
		}
	}
	return ""
}

// TestAgentRemovable builds the package, in a scratch copy of the module,
// once without each agent's files: what one agent's code uses of another's
// belongs in a shared file.
func TestAgentRemovable(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to build the scratch copies: ", err)
	}
	if len(agentFiles(t)[""]) == 0 {
		t.Fatal("no shared file found: the test is not running in harness/")
	}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range []string{"go.mod", "go.sum"} {
				copyFile(t, filepath.Join("..", f), filepath.Join(root, f))
			}
			copyTree(t, filepath.Join("..", "internal"), filepath.Join(root, "internal"), func(string) bool { return true })
			removed := 0
			copyTree(t, ".", filepath.Join(root, "harness"), func(rel string) bool {
				if strings.Contains(rel, string(filepath.Separator)) || strings.HasSuffix(rel, "_test.go") {
					return false // testdata, and tests: they may name any agent
				}
				if strings.HasPrefix(rel, name) {
					removed++
					return false
				}
				return true
			})
			if removed == 0 {
				t.Fatalf("no file of %s found to remove", name)
			}
			cmd := exec.Command(goBin, "build", "./harness/")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOWORK=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("harness without %s's files does not build (%v):\n%s", name, err, out)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the regular files under from that keep accepts (by their
// path relative to from) to the same places under to.
func copyTree(t *testing.T, from, to string, keep func(rel string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil || !keep(rel) {
			return err
		}
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

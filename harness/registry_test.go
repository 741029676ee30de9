package harness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// TestGrammarIsTheGate holds that every ID check goes through the agent's
// own Grammar (Spec.ID): no file of this package calls the UUID check of
// internal/safe, or the shared UUID grammar's functions, except to define
// that grammar. An agent whose IDs are not UUIDs then needs to change
// nothing but its Spec.
func TestGrammarIsTheGate(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for _, files := range agentFiles(t) {
		for _, name := range files {
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			safeName := ""
			for _, imp := range f.Imports {
				if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/fleetcom/fleetcom/internal/safe" {
					safeName = "safe"
					if imp.Name != nil {
						safeName = imp.Name.Name
					}
				}
			}
			for _, decl := range f.Decls {
				if definesUUIDGrammar(decl) {
					continue
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					sel, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					x, ok := sel.X.(*ast.Ident)
					if !ok {
						return true
					}
					bypass := x.Name == safeName && safeName != "" && (sel.Sel.Name == "UUID" || sel.Sel.Name == "UUIDPrefix") ||
						x.Name == "UUID" && (sel.Sel.Name == "Valid" || sel.Sel.Name == "Prefix")
					if bypass {
						t.Errorf("%s: %s.%s checks an ID without the agent's grammar: use <agent>Spec.ID",
							fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
					}
					return true
				})
			}
		}
	}
	if checked == 0 {
		t.Fatal("no file checked")
	}
}

// definesUUIDGrammar reports the declaration of the UUID grammar itself.
func definesUUIDGrammar(decl ast.Decl) bool {
	g, ok := decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
		return false
	}
	v, ok := g.Specs[0].(*ast.ValueSpec)
	return ok && len(v.Names) == 1 && v.Names[0].Name == "UUID"
}

// TestHomeVar: HomeVar names the home itself, or, with HomeVarBase, stands
// for $HOME (GEMINI_CLI_HOME: the store is $GEMINI_CLI_HOME/.gemini).
func TestHomeVar(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	own := &Spec{Name: "own", Display: "Own", HomeVar: "OWN_HOME", HomeDir: ".own"}
	base := &Spec{Name: "base", Display: "Base", HomeVar: "BASE_HOME", HomeDir: ".base", HomeVarBase: true}
	for _, c := range []struct {
		s    *Spec
		env  map[string]string
		want string
	}{
		{own, map[string]string{"HOME": "/u", "OWN_HOME": "/x/"}, "/x"},
		{own, map[string]string{"HOME": "/u"}, "/u/.own"},
		{base, map[string]string{"HOME": "/u", "BASE_HOME": "/x/"}, "/x/.base"},
		{base, map[string]string{"HOME": "/u"}, "/u/.base"},
	} {
		if got := c.s.Home(env(c.env)); got != c.want {
			t.Errorf("%s home with %v = %q, want %q", c.s.Name, c.env, got, c.want)
		}
	}
	if h := own.HomeHelp(); !strings.Contains(h, "Own's home") || !strings.Contains(h, "~/.own") {
		t.Errorf("HomeHelp = %q", h)
	}
	if h := base.HomeHelp(); !strings.Contains(h, "$BASE_HOME/.base") || strings.Contains(h, "Base's home,") {
		t.Errorf("HomeHelp with HomeVarBase = %q", h)
	}
}

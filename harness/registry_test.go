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
	for _, name := range testNames() {
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
	for _, name := range testNames() {
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
	data := &Spec{Name: "data", Display: "Data", HomeVar: "DATA_HOME", HomeDir: "data", HomeVarBase: true,
		HomeDefault: ".local/share/data"}
	for _, c := range []struct {
		s    *Spec
		env  map[string]string
		want string
	}{
		{own, map[string]string{"HOME": "/u", "OWN_HOME": "/x/"}, "/x"},
		{own, map[string]string{"HOME": "/u"}, "/u/.own"},
		{base, map[string]string{"HOME": "/u", "BASE_HOME": "/x/"}, "/x/.base"},
		{base, map[string]string{"HOME": "/u"}, "/u/.base"},
		{data, map[string]string{"HOME": "/u", "DATA_HOME": "/x/"}, "/x/data"},
		{data, map[string]string{"HOME": "/u"}, "/u/.local/share/data"},
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
	if h := data.HomeHelp(); !strings.Contains(h, "$DATA_HOME/data") || !strings.Contains(h, "~/.local/share/data") ||
		strings.Contains(h, "$HOME") {
		t.Errorf("HomeHelp with HomeDefault = %q", h)
	}
}

// TestNoAgentNamedOutside holds the registry's rule for the rest of the
// module: outside harness/, a Go file names an agent (in a string) only when
// it is that agent's own file, named after it (fakeclaude_test.go,
// e2e/claude_world.go, shim_codex_test.go) or is generated from the
// registry; everything else takes agents from the registry. Adding an agent then touches its own files only, and
// removing one removes them.
func TestNoAgentNamedOutside(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	seen := map[string]bool{}
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (n == "harness" || n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		files++
		rel := filepath.ToSlash(strings.TrimPrefix(p, "../"))
		if ownedFile(filepath.Base(p)) {
			return nil // an agent's own file: its facts may name other agents (Grok reads Claude's settings)
		}
		if ast.IsGenerated(f) {
			return nil // written from the registry (internal/early's table)
		}
		named := false
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			for _, name := range testNames() {
				if !namesWord(lit.Value, name) {
					continue
				}
				named = true
				if !stillNaming[rel] {
					t.Errorf("%s: %s names %s: take it from the registry, or move the code to a file of %s's own",
						fset.Position(lit.Pos()), lit.Value, name, name)
				}
			}
			return true
		})
		if stillNaming[rel] && !named {
			t.Errorf("%s names no agent any more: take it off stillNaming", rel)
		}
		seen[rel] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d Go files found outside harness/: the walk did not start at the module root", files)
	}
	for rel := range stillNaming {
		if !seen[rel] {
			t.Errorf("%s on stillNaming is gone: take it off", rel)
		}
	}
}

// ownedFile reports a file named after a registered agent, as an agent's
// own files outside harness/ are: fakeclaude_test.go, claude_world.go,
// shim_codex_test.go, benchcodex_test.go.
func ownedFile(base string) bool {
	base = strings.ToLower(base)
	for _, name := range testNames() {
		if strings.Contains(base, name) {
			return true
		}
	}
	return false
}

// stillNaming are the test files that still use the agents' names in their
// fixtures and expectations, from before this rule: each drives one
// particular agent's fake or store. The list only shrinks (a file that
// names no agent any more must leave it); moving a file's agent-specific
// tests into files of the agent's own, or taking names from the registry,
// takes it off. Nothing else may join it.
var stillNaming = map[string]bool{
	"catalog/adopt_test.go":            true,
	"catalog/move_test.go":             true,
	"cmd/fleetcom/complete_test.go":    true,
	"cmd/fleetcom/completion_test.go":  true,
	"cmd/fleetcom/doctor_path_test.go": true,
	"cmd/fleetcom/doctor_test.go":      true,
	"cmd/fleetcom/fsfault_test.go":     true,
	"cmd/fleetcom/hostile_test.go":     true,
	"cmd/fleetcom/init_test.go":        true,
	"cmd/fleetcom/install_test.go":     true,
	"cmd/fleetcom/login_test.go":       true,
	"cmd/fleetcom/uninstall_test.go":   true,
	"config/config_test.go":            true,
	"shim/hint_fuzz_test.go":           true,
	"shim/runtime_test.go":             true,
}

// namesWord reports whether s holds name as a word of its own, in any case.
func namesWord(s, name string) bool {
	s = strings.ToLower(s)
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !wordChar(s[j-1])) && (end == len(s) || !wordChar(s[end])) {
			return true
		}
		i = j + 1
	}
}

func wordChar(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// testNames are the names of testAgents.
func testNames() []string {
	var out []string
	for _, a := range testAgents() {
		out = append(out, a.Name)
	}
	return out
}

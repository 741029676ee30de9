package agents

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The list's promise: an agent is its own package, harness/<name>, and
// adding one is that package and a line of the list (with its fake and its
// e2e world). These tests hold the boundary by reading import lines, which
// is cheap: nothing is built.

const module = "github.com/fleetcom/fleetcom"

// root is the module's directory, from this package's.
const root = "../.."

// agentPackages maps the import path of each listed agent's package to the
// agent's name, from where its Behaviour is declared.
func agentPackages(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, a := range list {
		out[reflect.TypeOf(a.Behaviour).PkgPath()] = a.Name
	}
	return out
}

// goFiles calls fn with each Go file of the module (testdata and hidden
// folders aside), by its slash path from the module's root, parsed as far
// as its imports.
func goFiles(t *testing.T, fn func(rel string, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		n++
		fn(filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d Go files found: the walk did not start at the module's root", n)
	}
}

// TestImportBoundary: an agent's package is imported by the list (this
// package) and by that agent's own files elsewhere (its fake, its e2e
// world, tests of its own: files whose names carry the agent's name), by
// nothing else; harness imports no agent and not the list, and no agent
// imports another agent or the list. What two agents share belongs in
// harness.
func TestImportBoundary(t *testing.T) {
	pkgs := agentPackages(t)
	goFiles(t, func(rel string, f *ast.File) {
		dir := path.Dir(rel)
		own := pkgs[module+"/"+dir] // the agent whose package this file is in, if any
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name, isAgent := pkgs[p]
			switch {
			case p == module+"/harness/agents" && (dir == "harness" || own != ""):
				t.Errorf("%s imports the list: only the rest of fleetcom asks it", rel)
			case !isAgent:
			case dir == "harness":
				t.Errorf("%s imports %s: harness knows no agent", rel, p)
			case own != "" && own != name:
				t.Errorf("%s imports %s: one agent's package uses nothing of another's", rel, p)
			case dir == "harness/agents" || own == name:
			case !strings.Contains(strings.ToLower(path.Base(rel)), name):
				t.Errorf("%s imports %s: outside the list, only %s's own files do (fake%s_test.go, %s_world.go)",
					rel, p, name, name, name)
			}
		}
	})
}

// TestEveryAgentInItsPackage: each listed agent lives in harness/<name>, in
// a package of its name.
func TestEveryAgentInItsPackage(t *testing.T) {
	for _, a := range list {
		if p := reflect.TypeOf(a.Behaviour).PkgPath(); p != module+"/harness/"+a.Name {
			t.Errorf("%s's behaviour is declared in %s, not in harness/%s", a.Name, p, a.Name)
		}
	}
}

// TestGrammarIsTheGate holds that every ID check goes through the agent's
// own Grammar (Spec.ID): no file of harness or of an agent's package calls
// the UUID check of internal/safe, or the shared UUID grammar's functions,
// except where harness defines that grammar. An agent whose IDs are not
// UUIDs then needs to change nothing but its Spec.
func TestGrammarIsTheGate(t *testing.T) {
	dirs := []string{"harness"}
	for p := range agentPackages(t) {
		dirs = append(dirs, strings.TrimPrefix(p, module+"/"))
	}
	fset := token.NewFileSet()
	checked := 0
	for _, dir := range dirs {
		names, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			safeName := ""
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/internal/safe" {
					safeName = "safe"
					if imp.Name != nil {
						safeName = imp.Name.Name
					}
				}
			}
			for _, decl := range f.Decls {
				if dir == "harness" && definesUUIDGrammar(decl) {
					continue
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					sel, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == safeName && safeName != "" &&
						(sel.Sel.Name == "UUID" || sel.Sel.Name == "UUIDPrefix") ||
						namesUUID(sel.X) && (sel.Sel.Name == "Valid" || sel.Sel.Name == "Prefix") {
						t.Errorf("%s: %s checks an ID without the agent's grammar: use the Spec's ID",
							fset.Position(sel.Pos()), sel.Sel.Name)
					}
					return true
				})
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d files checked", checked)
	}
}

// namesUUID reports the shared UUID grammar: UUID, or harness.UUID.
func namesUUID(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "UUID"
	case *ast.SelectorExpr:
		return e.Sel.Name == "UUID"
	}
	return false
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

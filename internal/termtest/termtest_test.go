package termtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

const wait = time.Minute

// TestOnlyTestsImport: no package that ships imports the kit; only the
// e2e package, which is test code, may. go list without -test sees only
// the packages' own files, so a test file's import does not count.
func TestOnlyTestsImport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const kit = "github.com/fleetcom/fleetcom/internal/termtest"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list listed only %q", lines)
	}
	for _, line := range lines {
		pkg, deps, _ := strings.Cut(line, " ")
		if pkg == kit || pkg == "github.com/fleetcom/fleetcom/e2e" || strings.HasPrefix(pkg, "github.com/fleetcom/fleetcom/e2e/") {
			continue
		}
		for _, d := range strings.Fields(deps) {
			if d == kit {
				t.Errorf("%s depends on %s: only tests may", pkg, kit)
			}
		}
	}
}

func oneCell(rune) int { return 1 }

// A screen takes what it knows, keeps a cut sequence for the next write,
// and refuses the rest.
func TestScreen(t *testing.T) {
	s := NewScreen(10, 3, oneCell)
	s.Write([]byte("ab\r\n\x1b[7mcd\x1b[0m\x1b"))
	if len(s.Pending()) != 1 {
		t.Errorf("pending %q", s.Pending())
	}
	s.Write([]byte("[1;8Hxyz!\x1b[?1049h\x07"))
	if s.Alt() == false || s.Text() != "\n\n" {
		t.Errorf("alt %v, %q", s.Alt(), s.Text())
	}
	s.Write([]byte("\x1b[?1049l\u202e"))
	if got := s.Lines(); got[0] != "ab     xyz" || got[1] != "cd" {
		t.Errorf("lines %q", got)
	}
	if !s.Reverse(0, 1) || s.Reverse(2, 1) || s.Widest() != 10 {
		t.Errorf("reverse %v %v, widest %d", s.Reverse(0, 1), s.Reverse(2, 1), s.Widest())
	}
	if f := s.Faults(); len(f) != 3 || !strings.Contains(f[0], "wrap") || !strings.Contains(f[1], "0x7") || !strings.Contains(f[2], "bidi") {
		t.Errorf("faults %q", f)
	}
}

// A session types, reads, and reports how its command ended.
func TestSession(t *testing.T) {
	s, err := Start(exec.Command("/bin/sh", "-c", `stty -echo; echo ready; read x; echo "got $x"; kill -TERM $$`), 24, 80)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at, err := s.WaitFor("ready", 0, wait)
	if err != nil {
		t.Fatalf("%v: %q", err, s.Output())
	}
	s.Write([]byte("hello\r"))
	if _, err := s.WaitFor("got hello", at, wait); err != nil {
		t.Fatalf("%v: %q", err, s.Output())
	}
	st, err := s.Wait(wait)
	if err != nil || st.String() != "signal TERM" {
		t.Errorf("status %v, %v", st, err)
	}
	if _, err := s.WaitFor("never", 0, wait); err == nil || !strings.Contains(err.Error(), ErrHungUp.Error()) {
		t.Errorf("a wait on a hung-up terminal: %v", err)
	}
	if m, err := s.Modes(); err != nil || m.Lflag == 0 {
		t.Errorf("modes %+v, %v", m, err)
	}
}

// A pane shows what its program writes, takes keys, and keeps its exit
// status.
func TestPane(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed; CI must install it (.ci/run)")
		}
		t.Skip("tmux is not installed: this test needs it (CI installs it)")
	}
	s := NewServer(t, Options{Env: []string{"PATH=/usr/bin:/bin"}, Cols: 40, Rows: 10})
	p := s.Start(t, t.TempDir(), "/bin/sh", "-c", `echo ready; read x; echo "got $x"; exit 3`)
	p.WaitFor("ready", wait)
	p.Type("hi")
	p.Keys("Enter")
	p.WaitFor("got hi", wait)
	if status, screen := p.WaitExit(wait); status != 3 || !strings.Contains(screen, "got hi") {
		t.Errorf("status %d, screen:\n%s", status, screen)
	}
}

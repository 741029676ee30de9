package picker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/internal/termtest"
)

// tmuxRun is a command in a tmux pane, a real terminal emulator: what it
// draws is read back as the user would see it, and keys are typed. The
// tmux server is a private one.
type tmuxRun struct{ *termtest.Pane }

func startTmux(t *testing.T, cols, rows int, env []string, argv ...string) *tmuxRun {
	t.Helper()
	needTool(t, "tmux")
	var environ []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "TMUX=") && !strings.HasPrefix(e, "TMUX_PANE=") {
			environ = append(environ, e)
		}
	}
	s := termtest.NewServer(t, termtest.Options{Env: append(environ, env...), Cols: cols, Rows: rows})
	return &tmuxRun{s.Start(t, "", argv...)}
}

// waitText waits until the pane shows text.
func (r *tmuxRun) waitText(text string) string { return r.WaitFor(text, ptyWait) }

// startPickerInTmux runs the helper in a tmux pane with its stdout going to
// a file, as in `line=$(fleetcom pick)`: the picker must draw on the
// terminal it opens, never on stdout.
func startPickerInTmux(t *testing.T, cfg helperConfig, cols, rows int) (r *tmuxRun, result, stdout string) {
	t.Helper()
	dir := t.TempDir()
	env, result := writeConfig(t, dir, cfg)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stdout = filepath.Join(dir, "stdout")
	r = startTmux(t, cols, rows, append(env, "TERM=tmux-256color"), "/bin/sh", "-c", `exec "$0" >"$1"`, exe, stdout)
	return r, result, stdout
}

// checkStdout checks that the helper's stdout holds exactly want.
func checkStdout(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Errorf("stdout = %q (%v), want %q", b, err, want)
	}
}

func TestFZFFilterChooses(t *testing.T) {
	fzf := needTool(t, "fzf")
	r, result, stdout := startPickerInTmux(t, helperConfig{Rows: sample, Header: sampleHeader, FZF: fzf}, 120, 20)
	r.waitText("DIRECTORY")
	r.waitText("3/3")
	r.Type("parser")
	r.waitText("1/3")
	r.Keys("Enter")
	if got := waitResult(t, result, r.Screen); got != "chosen "+sample[1].Key+"\n" {
		t.Errorf("result %q", got)
	}
	checkStdout(t, stdout, sample[1].Key+"\n")
}

// TestFZFRowsLater: fzf is given the later rows too (Options.More), and a
// later row chosen comes back at its index after the first ones.
func TestFZFRowsLater(t *testing.T) {
	fzf := needTool(t, "fzf")
	gate := filepath.Join(t.TempDir(), "gate")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := helperConfig{Rows: nil, Later: [][]Row{sample[:2], sample[2:]}, Gate: gate, Header: sampleHeader, FZF: fzf}
	r, result, stdout := startPickerInTmux(t, cfg, 120, 20)
	r.waitText("3/3")
	r.Type("Ünï")
	r.waitText("1/3")
	r.Keys("Enter")
	if got := waitResult(t, result, r.Screen); got != "chosen "+sample[2].Key+"\n" {
		t.Errorf("result %q", got)
	}
	checkStdout(t, stdout, sample[2].Key+"\n")
}

func TestFZFEscCancels(t *testing.T) {
	fzf := needTool(t, "fzf")
	r, result, stdout := startPickerInTmux(t, helperConfig{Rows: sample, Header: sampleHeader, FZF: fzf}, 120, 20)
	r.waitText("3/3")
	r.Keys("Escape")
	if got := waitResult(t, result, r.Screen); got != "cancelled\n" {
		t.Errorf("result %q", got)
	}
	checkStdout(t, stdout, "")
}

// TestFZFPreview has fzf preview the highlighted row with a command whose
// path and first argument hold spaces, quotes, a backslash, shell syntax
// and fzf's own placeholders: the preview must get exactly those words and
// the row's key.
func TestFZFPreview(t *testing.T) {
	fzf := needTool(t, "fzf")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), `it's a "dir" \ with $(spaces)`)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, `pre view{2}`)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	hostile := []string{previewFlag, `a "quoted" it's $HOME \n {} {2} {q} $(id) ;x`}
	cfg := helperConfig{Rows: sample, Header: sampleHeader, FZF: fzf, Preview: append([]string{link}, hostile...)}

	env, result := writeConfig(t, t.TempDir(), cfg)
	env = append(env, wantEnv+"="+strings.Join(hostile[1:], "\x1f"), "TERM=tmux-256color")
	r := startTmux(t, 160, 24, env, exe)
	r.waitText("PREVIEW key=" + sample[0].Key + " argv-exact=true")
	r.Keys("Down")
	r.waitText("PREVIEW key=" + sample[1].Key + " argv-exact=true")
	r.Keys("Enter")
	if got := waitResult(t, result, r.Screen); got != "chosen "+sample[1].Key+"\n" {
		t.Errorf("result %q", got)
	}
}

// TestBuiltinInTmux draws the built-in picker in a real terminal emulator:
// wide characters and a narrow window, then a narrower one, never wrap.
func TestBuiltinInTmux(t *testing.T) {
	rows := append(append([]Row(nil), sample...), hostileRows[2])
	r, result, stdout := startPickerInTmux(t, helperConfig{Rows: rows, Header: sampleHeader, FZF: "-"}, 40, 10)
	check := func(cols int) func(string) bool {
		return func(p string) bool {
			lines := strings.Split(p, "\n")
			if len(lines) < 6 || !strings.HasPrefix(lines[2], "> anchor") || !strings.HasPrefix(lines[5], "  echo") {
				return false
			}
			for _, l := range lines[2:6] {
				if width(l) > cols-1 || !strings.Contains(l, "…") {
					return false
				}
			}
			return true
		}
	}
	p := r.WaitUntil("four rows cut to 40 columns", ptyWait, check(40))
	if !strings.Contains(p, "長い") {
		t.Errorf("wide characters missing:\n%s", p)
	}
	r.Resize(32, 0)
	r.WaitUntil("four rows cut to 32 columns", ptyWait, check(32))
	r.Keys("Down", "Enter")
	if got := waitResult(t, result, r.Screen); got != "chosen "+rows[1].Key+"\n" {
		t.Errorf("result %q", got)
	}
	checkStdout(t, stdout, rows[1].Key+"\n")
}

package picker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxRun is a command in a tmux pane, a real terminal emulator: what it
// draws is read back with capture-pane, as the user would see it, and keys
// are typed with send-keys. The tmux server is a private one.
type tmuxRun struct {
	t    *testing.T
	tmux string
	sock string
}

func startTmux(t *testing.T, cols, rows int, env []string, argv ...string) *tmuxRun {
	t.Helper()
	tmux := needTool(t, "tmux")
	dir, err := os.MkdirTemp("", "picker-tmux-") // a socket path must be short
	if err != nil {
		t.Fatal(err)
	}
	r := &tmuxRun{t: t, tmux: tmux, sock: filepath.Join(dir, "s")}
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g remain-on-exit on\nset -g status off\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-S", r.sock, "-f", conf, "new-session", "-d",
		"-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "--"}, argv...)
	cmd := exec.Command(tmux, args...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "TMUX=") && !strings.HasPrefix(e, "TMUX_PANE=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() {
		exec.Command(tmux, "-S", r.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	return r
}

func (r *tmuxRun) run(args ...string) string {
	r.t.Helper()
	out, err := exec.Command(r.tmux, append([]string{"-S", r.sock}, args...)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// pane is what the pane shows.
func (r *tmuxRun) pane() string { return r.run("capture-pane", "-p") }

// waitPane waits until the pane satisfies ok.
func (r *tmuxRun) waitPane(what string, ok func(pane string) bool) string {
	r.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		p := r.pane()
		if ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("timed out waiting for %s; pane:\n%s", what, p)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (r *tmuxRun) waitText(text string) string {
	r.t.Helper()
	return r.waitPane(strconv.Quote(text), func(p string) bool { return strings.Contains(p, text) })
}

// keys types literal text, or tmux key names with literal false.
func (r *tmuxRun) keys(literal bool, keys ...string) {
	r.t.Helper()
	args := []string{"send-keys", "-t", "0"}
	if literal {
		args = append(args, "-l")
	}
	r.run(append(args, keys...)...)
}

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
	r.keys(true, "parser")
	r.waitText("1/3")
	r.keys(false, "Enter")
	if got := waitResult(t, result, r.pane); got != "chosen "+sample[1].Key+"\n" {
		t.Errorf("result %q", got)
	}
	checkStdout(t, stdout, sample[1].Key+"\n")
}

func TestFZFEscCancels(t *testing.T) {
	fzf := needTool(t, "fzf")
	r, result, stdout := startPickerInTmux(t, helperConfig{Rows: sample, Header: sampleHeader, FZF: fzf}, 120, 20)
	r.waitText("3/3")
	r.keys(false, "Escape")
	if got := waitResult(t, result, r.pane); got != "cancelled\n" {
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
	r.keys(false, "Down")
	r.waitText("PREVIEW key=" + sample[1].Key + " argv-exact=true")
	r.keys(false, "Enter")
	if got := waitResult(t, result, r.pane); got != "chosen "+sample[1].Key+"\n" {
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
	p := r.waitPane("four rows cut to 40 columns", check(40))
	if !strings.Contains(p, "長い") {
		t.Errorf("wide characters missing:\n%s", p)
	}
	r.run("resize-window", "-t", "0", "-x", "32")
	r.waitPane("four rows cut to 32 columns", check(32))
	r.keys(false, "Down", "Enter")
	if got := waitResult(t, result, r.pane); got != "chosen "+rows[1].Key+"\n" {
		t.Errorf("result %q", got)
	}
	checkStdout(t, stdout, rows[1].Key+"\n")
}

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// doctor, when another directory comes before the shims: it names the
// startup line that put it there, and its hint is a fix that works, never
// "add the init line" when it is already there.

// TestDoctorNamesTheLine drives a login bash with a Debian ~/.profile, the
// init line in ~/.bashrc and every agent's CLI in ~/.local/bin, where a
// command runs before any prompt (bash -lc): doctor names ~/.profile's line
// as one problem, for all the CLIs it puts first, with one fix; the line
// its hint gives, added where it says, puts the shims first. --json keeps
// a check per CLI.
func TestDoctorNamesTheLine(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	needShell(t, "bash")
	bin := filepath.Join(selfAs(t, "fleetcom"), "fleetcom")
	home := t.TempDir()
	localBin := filepath.Join(home, ".local", "bin")
	shims := filepath.Join(home, ".local", "share", "fleetcom", "shims")
	env := append(shellEnv(home, filepath.Join(home, ".local", "state")), "SHELL=/bin/bash", "BIN="+bin,
		"XDG_RUNTIME_DIR="+t.TempDir())
	debian, err := os.ReadFile("../../internal/rcfile/testdata/debian.profile")
	if err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(home, ".profile")
	initLine := `eval "$(` + quoteForShell(bin) + ` init bash)"`
	files := map[string]string{".profile": string(debian), ".bashrc": "HISTSIZE=1000\n" + initLine + "\n"}
	var checks []string
	for _, name := range agents.Names() {
		files[".local/bin/"+name] = "#!/bin/sh\necho real " + name + "\n"
		checks = append(checks, name+".path")
	}
	for name, content := range files {
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := testexec.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "shims", "install")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("shims install: %v\n%s", err, out)
	}
	login := func(script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-lc", script)
		cmd.Dir, cmd.Env = home, env
		out, _ := cmd.CombinedOutput() // doctor exits 1 on a problem
		return string(out)
	}
	out := login(`"$BIN" doctor`)
	why := profile + ":22 puts " + localBin + " in front after the init line (" + filepath.Join(home, ".bashrc") + ":2)"
	wantDetail := "problem  " + strings.Join(checks, ", ") + ": " + strings.Join(agents.Names(), ", ") + " in " + localBin +
		" come before the shims on PATH: " + why + "\n"
	if !strings.Contains(out, wantDetail) {
		t.Errorf("doctor does not name the line as one problem:\nwant %q\n got:\n%s", wantDetail, out)
	}
	if n := strings.Count(out, "problem  "); n != 1 {
		t.Errorf("doctor reports %d problems, want the one:\n%s", n, out)
	}
	m := regexp.MustCompile(`\n {9}hint: add this line at the end of (\S+), then open a new shell: (.*)`).FindStringSubmatch(out)
	if m == nil || m[1] != profile || !strings.Contains(out, wantDetail+m[0][1:]) {
		t.Fatalf("doctor's one hint does not stand under the problem and say where the line goes:\n%s", out)
	}
	var rep doctorReport
	if err := json.Unmarshal([]byte(login(`"$BIN" doctor --json`)), &rep); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, c := range rep.Checks {
		if !slices.Contains(checks, c.Name) {
			continue
		}
		seen++
		tool := strings.TrimSuffix(c.Name, ".path")
		if c.Status != statusProblem || c.Detail != filepath.Join(localBin, tool)+" comes before the shim on PATH: "+why ||
			c.Path != filepath.Join(localBin, tool) || c.Hint != "add this line at the end of "+m[1]+", then open a new shell: "+m[2] {
			t.Errorf("doctor --json: %+v", c)
		}
	}
	if seen != len(checks) || rep.Healthy {
		t.Errorf("doctor --json has %d of the %d PATH checks, healthy %v", seen, len(checks), rep.Healthy)
	}
	if strings.Contains(out, "add this line to ~/.bashrc") {
		t.Errorf("doctor asks for the init line ~/.bashrc already has:\n%s", out)
	}
	f, err := os.OpenFile(profile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(m[2] + "\n")
	f.Close()
	after := login(`"$BIN" doctor`)
	for _, name := range agents.Names() {
		if got := login(`command -v ` + name); got != filepath.Join(shims, name)+"\n" {
			t.Errorf("after the hint's fix, a login bash runs %q for %s", got, name)
		}
		if !strings.Contains(after, "ok       "+name+".path: the shim comes first") {
			t.Errorf("doctor after the fix:\n%s", after)
		}
	}
	// sh reads ~/.profile too: the line the hint gave does nothing there.
	cmd = exec.Command("sh", "-c", ". ./.profile && command -v claude")
	cmd.Dir, cmd.Env = home, env
	if got, err := cmd.CombinedOutput(); err != nil || string(got) != filepath.Join(localBin, "claude")+"\n" {
		t.Errorf("sh reading ~/.profile after the fix: %v\n%s", err, got)
	}
}

// TestDoctorInitLineThere: with the init line in ~/.bashrc, the hint never
// asks for it again: a later line that replaces PROMPT_COMMAND (and so the
// hook that keeps the shims first) is named, else a new shell is the fix.
func TestDoctorInitLineThere(t *testing.T) {
	w := newDoctorWorld(t)
	home := os.Getenv("HOME")
	os.MkdirAll(home, 0o755)
	bashrc := filepath.Join(home, ".bashrc")
	os.WriteFile(bashrc, []byte("eval \"$(fleetcom init bash)\"\nPROMPT_COMMAND='history -a'\n"), 0o644)
	t.Setenv("PATH", w.real+":"+w.shims)
	wantDoctor(t, 1, "problem  claude.path: "+filepath.Join(w.real, "claude")+" comes before the shim on PATH",
		"hint: move the init line ("+bashrc+":1) below "+bashrc+":2, which replaces the prompt hook")
	os.WriteFile(bashrc, []byte("PROMPT_COMMAND='history -a'\neval \"$(fleetcom init bash)\"\n"), 0o644)
	t.Setenv("PATH", w.real)
	wantDoctor(t, 1, "problem  codex.path: no codex on PATH: the shim directory is not on it",
		"hint: open a new shell: the init line ("+bashrc+":2) puts the shims first at every prompt")
	_, out, _ := doctor(t)
	if strings.Contains(out, "add this line") {
		t.Errorf("doctor asks for the init line that is there:\n%s", out)
	}
}

// TestDoctorColour: on a terminal the status words are coloured, problems
// in bold red; NO_COLOR turns that off, and a pipe never gets colour.
func TestDoctorColour(t *testing.T) {
	bin := filepath.Join(selfAs(t, "fleetcom"), "fleetcom")
	home := t.TempDir()
	store := filepath.Join(home, "state", "fleetcom")
	os.MkdirAll(store, 0o755) // not private: a problem
	env := append(shellEnv(home, filepath.Join(home, "state")), "TERM=xterm-256color", "XDG_RUNTIME_DIR="+t.TempDir())
	run := func(extra ...string) string {
		t.Helper()
		u, err := startPTY(bin, []string{"fleetcom", "doctor"}, append(append([]string{}, env...), extra...), home)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := u.finish(); err != nil {
			t.Fatal(err)
		}
		return u.screen()
	}
	if got := run(); !strings.Contains(got, "\x1b[1;31mproblem\x1b[0m  store: ") || !strings.Contains(got, "\x1b[32mok\x1b[0m") {
		t.Errorf("doctor on a terminal is not coloured:\n%q", got)
	}
	if got := run("NO_COLOR=1"); strings.Contains(got, "\x1b[") || !strings.Contains(got, "problem  store: ") {
		t.Errorf("doctor with NO_COLOR=1 is coloured:\n%q", got)
	}
	cmd := exec.Command(bin, "doctor")
	cmd.Env = env
	out, _ := cmd.Output()
	if strings.Contains(string(out), "\x1b[") || !strings.Contains(string(out), "problem  store: ") {
		t.Errorf("doctor into a pipe is coloured:\n%q", out)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// doctorWorld is a user whose fleetcom is the test binary: shims link to
// it, a real claude sits later on PATH, the store and runtime dir exist
// and are private. Each test then breaks one thing.
type doctorWorld struct {
	shims, real, store, runtime, config string
}

func newDoctorWorld(t *testing.T) doctorWorld {
	t.Helper()
	tmp := t.TempDir()
	w := doctorWorld{
		shims:   filepath.Join(tmp, "shims"),
		real:    filepath.Join(tmp, "real bin"),
		store:   filepath.Join(tmp, "state", "fleetcom"),
		runtime: filepath.Join(tmp, "run"),
		config:  filepath.Join(tmp, "config", "fleetcom", "config.toml"),
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{w.shims, w.real, filepath.Dir(w.config)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{w.store, w.runtime} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range append(agents.Names(), "fleetcom") {
		if err := os.Symlink(exe, filepath.Join(w.shims, tool)); err != nil {
			t.Fatal(err)
		}
	}
	if err := testexec.WriteFile(filepath.Join(w.real, "claude"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"PATH":                 w.shims + ":" + w.real,
		"HOME":                 filepath.Join(tmp, "home"),
		"SHELL":                "/bin/bash",
		"XDG_STATE_HOME":       filepath.Join(tmp, "state"),
		"XDG_CONFIG_HOME":      filepath.Join(tmp, "config"),
		"XDG_DATA_HOME":        filepath.Join(tmp, "data"),
		"XDG_CACHE_HOME":       filepath.Join(tmp, "cache"),
		"XDG_RUNTIME_DIR":      "",
		"FLEETCOM_SHIM_DIR":    w.shims,
		"FLEETCOM_RUNTIME_DIR": w.runtime,
		"CODEX_HOME":           filepath.Join(tmp, "home", ".codex"),
		"FLEETCOM_CLAUDE_BIN":  "",
		"FLEETCOM_CODEX_BIN":   "",
		"FLEETCOM_GROK_BIN":    "",
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
	return w
}

// doctor runs `fleetcom doctor ARGS…` in process.
func doctor(t *testing.T, args ...string) (code int, out, errs string) {
	t.Helper()
	out, errs = captureOutput(t, func() { code = dispatch(append([]string{"doctor"}, args...)) })
	return code, out, errs
}

// wantDoctor checks the exit status and that each line appears in stdout
// (checks) or stderr (hints).
func wantDoctor(t *testing.T, code int, lines ...string) {
	t.Helper()
	got, out, errs := doctor(t)
	if got != code {
		t.Errorf("doctor exited %d, want %d", got, code)
	}
	for _, l := range lines {
		if !strings.Contains(out, l) && !strings.Contains(errs, l) {
			t.Errorf("doctor output lacks %q", l)
		}
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
}

func TestDoctorHealthy(t *testing.T) {
	w := newDoctorWorld(t)
	wantDoctor(t, 0,
		"ok       shims: "+strings.Join(agents.Names(), ", ")+" in "+w.shims+" lead to this fleetcom",
		"ok       claude.path: the shim comes first on PATH",
		"ok       claude.real: real cli "+filepath.Join(w.real, "claude"),
		"note     codex.real: not installed",
		"hint: install codex, or set FLEETCOM_CODEX_BIN to its path",
		"ok       store: "+w.store+" is private and writable",
		"ok       runtime: "+w.runtime+" is private and writable",
		"ok       config: no "+w.config+": defaults apply")
	_, out, _ := doctor(t)
	if strings.Contains(out, "problem") {
		t.Errorf("a healthy setup shows a problem:\n%s", out)
	}
	// An agent's own checks are for agents that are installed.
	if strings.Contains(out, "codex.notify") {
		t.Errorf("doctor checks codex's notifier while codex is not installed:\n%s", out)
	}
	if err := testexec.WriteFile(filepath.Join(w.real, "codex"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantDoctor(t, 0, "ok       codex.real: real cli", "ok       codex.notify: no notify configured")
}

func TestDoctorShimNotFirst(t *testing.T) {
	w := newDoctorWorld(t)
	t.Setenv("PATH", w.real+":"+w.shims)
	wantDoctor(t, 1,
		"problem  claude.path: "+filepath.Join(w.real, "claude")+" comes before the shim on PATH",
		"ok       codex.path",
		`hint: add this line to ~/.bashrc and open a new shell: eval "$(`)
	t.Setenv("SHELL", "/usr/bin/zsh")
	wantDoctor(t, 1, "add this line to ~/.zshrc", "init zsh)")
	t.Setenv("PATH", w.real)
	wantDoctor(t, 1, "problem  codex.path: no codex on PATH: the shim directory is not on it")
}

func TestDoctorShimsMissing(t *testing.T) {
	w := newDoctorWorld(t)
	os.Remove(filepath.Join(w.shims, "codex"))
	wantDoctor(t, 1, "problem  shims: in "+w.shims+": codex is missing", "shims install")
}

func TestDoctorRuntimeNotPrivate(t *testing.T) {
	w := newDoctorWorld(t)
	if err := os.Chmod(w.runtime, 0o770); err != nil {
		t.Fatal(err)
	}
	wantDoctor(t, 1, "problem  runtime: "+w.runtime+" is writable by others (mode 0770)",
		"hint: chmod 700 "+w.runtime)
	os.Remove(w.runtime)
	wantDoctor(t, 0, "ok       runtime: "+w.runtime+" will be created on first use")
}

func TestDoctorStoreNotPrivate(t *testing.T) {
	w := newDoctorWorld(t)
	if err := os.Chmod(w.store, 0o755); err != nil {
		t.Fatal(err)
	}
	wantDoctor(t, 1, "problem  store: "+w.store+" is not private (mode 0755)",
		"hint: chmod 700 "+w.store)
	os.Remove(w.store)
	wantDoctor(t, 0, "ok       store: "+w.store+" will be created on first use")
}

func TestDoctorNoRealCLI(t *testing.T) {
	w := newDoctorWorld(t)
	os.Remove(filepath.Join(w.real, "claude"))
	wantDoctor(t, 0,
		"note     claude.real: not installed",
		"note     agents: none of "+strings.Join(agents.Names(), ", ")+" is installed yet",
		"hint: install one of them, or point fleetcom at it with FLEETCOM_CLAUDE_BIN")
	_, _, errs := doctor(t)
	if strings.Contains(errs, "install claude") {
		t.Errorf("with no CLI at all, each tool still gets its own hint:\n%s", errs)
	}
}

func TestDoctorBadOverride(t *testing.T) {
	newDoctorWorld(t)
	t.Setenv("FLEETCOM_CODEX_BIN", "/nonexistent/codex")
	wantDoctor(t, 1, "problem  codex.real: FLEETCOM_CODEX_BIN is set to /nonexistent/codex",
		"hint: point FLEETCOM_CODEX_BIN at the real codex, or unset it")
}

func TestDoctorBadConfig(t *testing.T) {
	w := newDoctorWorld(t)
	if err := os.WriteFile(w.config, []byte("[claude]\nbin = \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantDoctor(t, 1, "problem  config: config "+w.config, "hint: fix or remove "+w.config)
	if err := os.WriteFile(w.config, []byte("[claude]\nbin = \"/nonexistent/claude\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantDoctor(t, 1, "ok       config: "+w.config+" is valid", "problem  claude.real",
		"hint: fix bin in the [claude] table of "+w.config)
}

func TestDoctorJSON(t *testing.T) {
	w := newDoctorWorld(t)
	for _, healthy := range []bool{true, false} {
		if !healthy {
			os.Chmod(w.store, 0o750)
		}
		code, out, errs := doctor(t, "--json")
		var rep doctorReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, out)
		}
		if rep.Healthy != healthy || (code == 0) != healthy || errs != "" {
			t.Errorf("healthy %v: doctor --json exited %d, healthy %v, stderr %q", healthy, code, rep.Healthy, errs)
		}
		var names []string
		for _, c := range rep.Checks {
			names = append(names, c.Name)
			if c.Status == statusProblem && c.Hint == "" {
				t.Errorf("problem %s has no hint", c.Name)
			}
		}
		// Every agent's path and real CLI; only claude is installed here.
		want := "fleetcom shims fleetcom.path"
		for _, name := range agents.Names() {
			want += " " + name + ".path " + name + ".real"
			if name == "claude" {
				want += " claude.version claude.needs-you"
			}
		}
		want += " store runtime config"
		if got := strings.Join(names, " "); got != want {
			t.Errorf("check names:\n got %s\nwant %s", got, want)
		}
		if rep.ShimDir != w.shims || rep.StoreDir != w.store || rep.RuntimeDir != w.runtime {
			t.Errorf("paths in the report: %+v", rep)
		}
	}
	if code, _, _ := doctor(t, "extra"); code != 2 {
		t.Errorf("doctor extra: exit %d, want 2", code)
	}
}

// Each installed CLI's version, and whether the real-CLI suite passed on
// it: every version of the table is proven, a newer one is a note (doctor
// stays healthy), and a binary that names no version says so.
func TestDoctorVersions(t *testing.T) {
	w := newDoctorWorld(t)
	claude, _ := agents.Named("claude")
	realClaude := filepath.Join(w.real, "claude")
	say := func(line string) {
		t.Helper()
		// A new file each time: the version probe is cached by path, size
		// and modification time, so the size changes with the line.
		os.Remove(realClaude)
		if err := testexec.WriteFile(realClaude, []byte("#!/bin/sh\necho '"+line+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range claude.Proven {
		say(v + " (Claude Code)")
		wantDoctor(t, 0, "ok       claude.version: claude "+v+", proven")
	}
	say("9.9.999 (Claude Code)")
	wantDoctor(t, 0, "note     claude.version: claude 9.9.999 is not among the versions fleetcom was proven on ("+
		strings.Join(claude.Proven, ", ")+")")
	say("Claude Code, the development build")
	wantDoctor(t, 0, "note     claude.version: "+realClaude+" --version names no version")

	// An agent the real-CLI suite has not passed on yet says so.
	proven := claude.Proven
	claude.Proven = nil
	defer func() { claude.Proven = proven }()
	wantDoctor(t, 0, "note     claude.version: "+realClaude+" --version names no version; claude is not proven yet")
	say("9.9.999 (Claude Code)")
	wantDoctor(t, 0, "note     claude.version: claude 9.9.999 is not proven yet (")
	if _, out, _ := doctor(t); strings.Contains(out, "()") {
		t.Errorf("doctor prints an empty list of proven versions:\n%s", out)
	}
}

// doctor says, per installed agent, what tells fleetcom that a run waits
// for the user, with the user's configuration.
func TestDoctorNeedsYou(t *testing.T) {
	w := newDoctorWorld(t)
	for _, tool := range []string{"codex", "gemini", "grok", "copilot"} {
		if err := testexec.WriteFile(filepath.Join(w.real, tool), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wantDoctor(t, 0,
		"ok       claude.needs-you: a run that waits for you is told by the hooks fleetcom gives each run",
		"ok       codex.needs-you: a run that waits for you is told by Codex's state on its terminal (OSC 7501 state=blocked)",
		`ok       gemini.needs-you: a run that waits for you is told by Gemini CLI's window title ("Action Required")`,
		`ok       grok.needs-you: a run that waits for you is told by Grok's window title ("Action Required")`)
	if err := os.WriteFile(w.config, []byte("[codex]\nhooks = true\n\n[claude]\nhooks = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantDoctor(t, 0,
		"ok       codex.needs-you: a run that waits for you is told by fleetcom's hooks (PermissionRequest)",
		"note     claude.needs-you: nothing tells when a claude run waits for you",
		"ok       copilot.needs-you: a run that waits for you is told by the hooks fleetcom gives each run")
}

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// A shell runs a file without "#!" with /bin/sh (the kernel refuses it with
// ENOEXEC), and its PATH search passes over a file it may not execute (a
// noexec mount, no execute permission for this user): so must a shim, on
// each of its ways to the real CLI.

// shellWorld is a user with the shims first on PATH and nothing else of
// fleetcom's set up.
type shellWorld struct {
	root  string
	agent harness.Agent
	env   []string // without PATH
	shims string
}

func newShellWorld(t *testing.T) shellWorld {
	t.Helper()
	root := t.TempDir()
	w := shellWorld{root: root, agent: agents.All()[0], shims: filepath.Join(root, "shims")}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	for _, d := range []string{home, w.shims, filepath.Join(root, "run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{w.agent.Name, "fleetcom"} {
		if err := os.Symlink(exe, filepath.Join(w.shims, name)); err != nil {
			t.Fatal(err)
		}
	}
	w.env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local/state"), "XDG_DATA_HOME=" + filepath.Join(home, ".local/share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_RUNTIME_DIR=" + filepath.Join(root, "run"),
		"FLEETCOM_SHIM_DIR=" + w.shims, "TERM=xterm"}
	return w
}

// program writes the agent's program into dir: a shell script that says
// who it is and what it was given, with "#!" or without.
func (w shellWorld) program(t *testing.T, dir, who string, shebang bool) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "echo \"" + who + ": $*\"\n"
	if shebang {
		body = "#!/bin/sh\n" + body
	}
	p := filepath.Join(dir, w.agent.Name)
	if err := testexec.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// way is one of the shim's ways to the real CLI that need no terminal.
type way struct {
	name  string
	argv  []string
	env   []string
	early bool // package early passes it on, before os is initialised
}

// ways are package early's pass-through, the shim's own pass-through (early
// leaves a hop record to it, an empty one counting as none for the shim),
// an override (FLEETCOM_<TOOL>_BIN, which early leaves to the shim too), and
// the accepted form run as a child. Each runs with GODEBUG=inittrace=1, so
// that the test can tell which of early and the shim passed a command on.
func (w shellWorld) ways(override string) []way {
	a := w.agent
	ways := []way{
		{"passed on early", []string{a.Name, "-p", "hi"}, nil, true},
		{"passed on by the shim", []string{a.Name, "-p", "hi"}, []string{a.HopVar() + "="}, false},
		{"the accepted form", []string{a.Name}, nil, false},
	}
	if override != "" {
		ways = append(ways, way{"an override", []string{a.Name, "-p", "hi"}, []string{a.BinVar() + "=" + override}, false})
	}
	for i := range ways {
		ways[i].env = append(ways[i].env, "GODEBUG=inittrace=1")
	}
	return ways
}

// check reports an output that does not show the way taken.
func (wy way) check(t *testing.T, out string) {
	t.Helper()
	if started := strings.Contains(out, "init os @"); started == wy.early {
		t.Errorf("os initialised: %v, want %v:\n%s", started, !wy.early, out)
	}
}

func TestShimRunsAScriptWithoutShebang(t *testing.T) {
	w := newShellWorld(t)
	dir := filepath.Join(w.root, "no shebang")
	prog := w.program(t, dir, "no shebang", false)
	path := "PATH=" + w.shims + ":" + dir + ":/usr/bin:/bin"
	for _, way := range w.ways(prog) {
		t.Run(way.name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(w.shims, way.argv[0]), way.argv[1:]...)
			cmd.Args[0] = way.argv[0]
			cmd.Env = append(append([]string{path}, w.env...), way.env...)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "no shebang: ") {
				t.Fatalf("%v: %s", err, out)
			}
			if len(way.argv) > 1 && !strings.Contains(string(out), "no shebang: -p hi\n") {
				t.Errorf("the program was given other arguments: %s", out)
			}
			way.check(t, string(out))
		})
	}
	// On a terminal the accepted form's child is started by the session
	// leader.
	t.Run("the accepted form on a terminal", func(t *testing.T) {
		u, err := startPTY(filepath.Join(w.shims, w.agent.Name), []string{w.agent.Name}, append([]string{path}, w.env...), w.root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := u.expect("no shebang: ", 0); err != nil {
			t.Error(err)
		}
		if how, err := u.finish(); err != nil || how != "exit 0" {
			t.Errorf("%s %v; screen:\n%s", how, err, u.screen())
		}
	})
}

// A candidate this process may not execute comes before the real CLI on
// PATH. As root only a noexec mount makes one, in a mount namespace of the
// test's own (unshare); as another user a file without execute permission
// for its owner does.
func TestShimPassesOverWhatItMayNotRun(t *testing.T) {
	w := newShellWorld(t)
	denied := filepath.Join(w.root, "denied")
	real := filepath.Join(w.root, "real")
	w.program(t, real, "real", true)
	// run runs argv through the shim with PATH, in the namespace when
	// there is one; the denied candidate is made there.
	var run func(path string, argv, env []string) (string, error)
	if os.Geteuid() != 0 {
		p := w.program(t, denied, "denied", true)
		if err := os.Chmod(p, 0o611); err != nil {
			t.Fatal(err)
		}
		run = func(path string, argv, env []string) (string, error) {
			cmd := exec.Command(filepath.Join(w.shims, argv[0]), argv[1:]...)
			cmd.Args[0] = argv[0]
			cmd.Env = append(append([]string{"PATH=" + path}, w.env...), env...)
			out, err := cmd.CombinedOutput()
			return string(out), err
		}
	} else {
		if err := os.MkdirAll(denied, 0o755); err != nil {
			t.Fatal(err)
		}
		const script = `mount -t tmpfs -o noexec fleetcom-test "$1" && printf '#!/bin/sh\necho denied\n' >"$1/$2" && chmod 755 "$1/$2" && shift 2 && exec "$@"`
		if out, err := exec.Command("unshare", "-rm", "sh", "-c", script, "sh", denied, w.agent.Name, "true").CombinedOutput(); err != nil {
			t.Skipf("no noexec mount to test with (unshare -rm, mount -t tmpfs): %v: %s", err, out)
		}
		run = func(path string, argv, env []string) (string, error) {
			args := []string{"-rm", "sh", "-c", script, "sh", denied, w.agent.Name, "env"}
			args = append(append(append(args, "PATH="+path), w.env...), env...)
			args = append(append(args, filepath.Join(w.shims, argv[0])), argv[1:]...)
			out, err := exec.Command("unshare", args...).CombinedOutput()
			return string(out), err
		}
	}
	for _, way := range w.ways("") {
		t.Run(way.name, func(t *testing.T) {
			out, err := run(w.shims+":"+denied+":"+real+":/usr/bin:/bin", way.argv, way.env)
			if err != nil || !strings.Contains(out, "real: ") || strings.Contains(out, "denied") {
				t.Fatalf("%v: %s", err, out)
			}
			way.check(t, out)
		})
	}
	// Nothing else on PATH: the shell's answer, permission denied (126).
	t.Run("nothing else", func(t *testing.T) {
		out, err := run(w.shims+":"+denied+":/usr/bin:/bin", []string{w.agent.Name, "-p", "hi"}, nil)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 126 || !strings.Contains(out, "permission denied") {
			t.Fatalf("%v: %s", err, out)
		}
		// doctor says what is wrong with it, and not that a config is.
		out, _ = run(w.shims+":"+denied+":/usr/bin:/bin", []string{"fleetcom", "doctor"}, nil)
		if want := "install " + w.agent.Name + " where this user may run it"; !strings.Contains(out, want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	})
}

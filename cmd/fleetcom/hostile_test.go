package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/internal/testexec"
	"github.com/fleetcom/fleetcom/store"
)

// selfAs puts this test binary in a fresh directory under name, where
// TestMain makes it behave as that program (fleetcom, or a shim).
func selfAs(t *testing.T, names ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range names {
		if err := os.Symlink(exe, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeRealClaude writes a stand-in for the real claude that logs where it
// ran and with what, one line per run.
func fakeRealClaude(t *testing.T, log string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nprintf '%s|%s\\n' \"$(pwd)\" \"$*\" >> " + safe.Quote(log) + "\n"
	if err := testexec.WriteFile(filepath.Join(dir, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestResumeLineInEveryShell evaluates the printed resume line in every
// shell fleetcom supports, for directory names that break naive quoting in
// one shell or another: each shell must land in the directory and run the
// line, and none may run anything else.
func TestResumeLineInEveryShell(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	names := []string{`x\'; touch PWNED #`, `a'b"c`, `back\\slash\`, `$(touch PWNED)`, "`touch PWNED`",
		`{a,b} * ? [x]`, `-n`, `~root`, `ünï çødé`, `semi;colon & pipe|`, `=ls`}
	fleet := selfAs(t, "fleetcom")
	home, state, log, real, st := hostileHome(t)
	neutral := filepath.Join(home, "neutral")
	os.Mkdir(neutral, 0o755)
	type rec struct{ dir, id string }
	var recs []rec
	for _, n := range names {
		dir := filepath.Join(home, n)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		phys, _ := safe.Physical(dir)
		id := safe.NewUUID()
		if _, err := st.Put(store.Record{Tool: "claude", ID: id, Cwd: phys, Program: "claude", Source: "hint",
			Started: time.Now(), Resumable: true}); err != nil {
			t.Fatal(err)
		}
		// The conversation is in Claude's store: a line is printed only
		// for one that is.
		writeTranscript(t, filepath.Join(home, ".claude"), phys, id)
		recs = append(recs, rec{phys, id})
	}
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + state, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"PATH=" + fleet + ":" + real + ":/usr/bin:/bin", "LANG=C.UTF-8"}
	evals := map[string]string{
		"bash": `eval "$(fleetcom resume claude "$ID")"`,
		"zsh":  `eval "$(fleetcom resume claude "$ID")"`,
		"dash": `eval "$(fleetcom resume claude "$ID")"`,
		"fish": `eval (fleetcom resume claude $ID)`,
	}
	for _, shell := range []string{"bash", "zsh", "dash", "fish"} {
		t.Run(shell, func(t *testing.T) {
			path := needShell(t, shell)
			for _, r := range recs {
				os.Remove(log)
				ctx, cancel := context.WithTimeout(context.Background(), shellWait)
				cmd := exec.CommandContext(ctx, path, "-c", evals[shell])
				cmd.Dir, cmd.Env = neutral, append(env, "ID="+r.id)
				out, err := cmd.CombinedOutput()
				cancel()
				got, _ := os.ReadFile(log)
				want := r.dir + "|--resume " + r.id + "\n"
				if err != nil || string(got) != want {
					t.Errorf("%s in %q: ran %q (want %q), %v\n%s", shell, filepath.Base(r.dir), got, want, err, out)
				}
			}
			if matches, _ := filepath.Glob(filepath.Join(home, "*", "PWNED")); len(matches) > 0 {
				t.Fatalf("%s ran a command from a directory name: %v", shell, matches)
			}
			if _, err := os.Stat(filepath.Join(neutral, "PWNED")); err == nil {
				t.Fatalf("%s ran a command from a directory name", shell)
			}
		})
	}
}

// TestLockHeldElsewhere holds every lock stripe of the store, as a stuck
// process would: a shim run still ends, within the shim's bound, with one
// warning and the child's status, and records nothing.
func TestLockHeldElsewhere(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	shims := selfAs(t, "claude")
	home, state, log, real, _ := hostileHome(t)
	for i := 0; i < 64; i++ {
		f, err := os.OpenFile(filepath.Join(state, "fleetcom", "locks", fmt.Sprintf("%02d", i)), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), shellWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(shims, "claude"))
	cmd.Env = []string{"HOME=" + home, "XDG_STATE_HOME=" + state, "XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "FLEETCOM_SHIM_DIR=" + shims,
		"PATH=" + shims + ":" + real + ":/usr/bin:/bin"}
	os.Mkdir(filepath.Join(home, "run"), 0o700)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the shim waited for the lock without bound: %s", stderr.String())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if err != nil {
		t.Errorf("the child's status was not returned: %v\n%s", err, stderr.String())
	}
	if got, _ := os.ReadFile(log); !strings.Contains(string(got), "--session-id") {
		t.Errorf("the CLI did not run instrumented: %q", got)
	}
	if n := strings.Count(stderr.String(), "fleetcom: warning:"); n != 1 || !strings.Contains(stderr.String(), "held by another process") {
		t.Errorf("want exactly one warning about the held lock, got:\n%s", stderr.String())
	}
	entries, _ := os.ReadDir(filepath.Join(state, "fleetcom", "records"))
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("a record was written past a held lock: %s", e.Name())
		}
	}
}

// hostileHome is a scratch home with a store under state/fleetcom and a
// fake real claude that logs each run to log.
func hostileHome(t *testing.T) (home, state, log, real string, st *store.Store) {
	t.Helper()
	home = t.TempDir()
	state = filepath.Join(home, "state")
	log = filepath.Join(home, "ran.log")
	real = fakeRealClaude(t, log)
	st, err := store.Open(filepath.Join(state, "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	return home, state, log, real, st
}

package shim

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// startPipePath starts the shim on the pipe path, its child a shell that
// says "ready" and sleeps: stdout and stderr a pipe, the user's terminal
// its controlling terminal but none of its descriptors 0-2. env is added to
// the shim's environment. It returns once the child has said "ready".
func startPipePath(t *testing.T, u *userTerm, env ...string) *shimProc {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := newShimProc(t, []string{"/bin/sh", "-c", "echo ready; exec sleep 20"})
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stdout, p.cmd.Stderr = w, w
	p.cmd.ExtraFiles = []*os.File{u.slave}
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	p.start(t)
	w.Close()
	b := make([]byte, 6)
	if _, err := r.Read(b); err != nil || string(b) != "ready\n" {
		t.Fatalf("child said %q, %v", b, err)
	}
	return p
}

// recordingEnv has the shim halt for a second once Spawn has returned, as
// if recording the run, after writing spawned.
func recordingEnv(spawned string) []string {
	return []string{stageEnv + "=recording", stageFileEnv + "=" + spawned}
}

// waitSpawned waits until the "recording" stage has written spawned: Spawn
// returned after what was done to end the child.
func waitSpawned(t *testing.T, spawned, after string) {
	t.Helper()
	for deadline := time.Now().Add(testWait); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(spawned); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Spawn did not return after %s", after)
		}
	}
}

// On the pipe path the keyboard's ^C goes to the child and to the shim
// alike. The child may die of it, and be seen to, before the kernel hands
// the shim its copy: that copy, coming while the run is recorded, must not
// end the shim before the record is written (CI saw the shim die of it,
// with no report). Here the late copy is sent by hand once Spawn has
// returned.
func TestShimLateKeyboardSignal(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  string
		sig  syscall.Signal
	}{
		{"^C", "\x03", syscall.SIGINT},
		{`^\`, "\x1c", syscall.SIGQUIT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUserTerm(t, 24, 80)
			spawned := filepath.Join(t.TempDir(), "spawned")
			p := startPipePath(t, u, recordingEnv(spawned)...)
			u.typeIn(t, tc.key)
			waitSpawned(t, spawned, tc.name)
			p.signal(t, tc.sig)
			if ws := p.death(t); ws.Signaled() || ws.ExitStatus() != 0 {
				t.Errorf("shim ended with %#x; want it to outlive the late %v and finish recording", ws, tc.sig)
			}
		})
	}
}

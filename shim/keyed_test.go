package shim

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

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
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			spawned := filepath.Join(t.TempDir(), "spawned")
			p := newShimProc(t, []string{"/bin/sh", "-c", "echo ready; exec sleep 20"})
			p.cmd.Env = append(p.cmd.Env, stageEnv+"=recording", stageFileEnv+"="+spawned)
			p.cmd.Stdout, p.cmd.Stderr = w, w
			p.cmd.ExtraFiles = []*os.File{u.slave}
			p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
			p.start(t)
			w.Close()
			b := make([]byte, 6)
			if _, err := r.Read(b); err != nil || string(b) != "ready\n" {
				t.Fatalf("child said %q, %v", b, err)
			}
			u.typeIn(t, tc.key)
			for deadline := time.Now().Add(testWait); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(spawned); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("Spawn did not return after %q", tc.key)
				}
			}
			p.signal(t, tc.sig)
			if ws := p.death(t); ws.Signaled() || ws.ExitStatus() != 0 {
				t.Errorf("shim ended with %#x; want it to outlive the late %v and finish recording", ws, tc.sig)
			}
		})
	}
}

package codex

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/internal/testexec"
)

func notifyMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func notifyFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	notifyMust(t, os.MkdirAll(filepath.Dir(path), 0o700))
	notifyMust(t, testexec.WriteFile(path, data, 0o700))
	return path
}

// notifyRecorder is a chained notifier that writes its argv, $0 first, as
// NUL-terminated strings, and which of fleetcom's per-run variables it saw.
const notifyRecorder = `#!/bin/sh
{ printf '%s\0' "$0"; for a do printf '%s\0' "$a"; done; } >"$NOTIFY_REC"
printf '%s,%s' "${FLEETCOM_CAPTURE_FILE+capture}" "${FLEETCOM_NOTIFY_CHAIN+chain}" >"$NOTIFY_REC.env"
`

// notifyRig is one installed script with its capture file, a recorder, and a
// working directory holding files, so an unquoted * would glob.
type notifyRig struct {
	sh, base, ns, script, capture, recorder, work string
}

// notifyForShells runs f under each shell the script must work in.
func notifyForShells(t *testing.T, f func(t *testing.T, r *notifyRig)) {
	for _, name := range []string{"dash", "bash"} {
		t.Run(name, func(t *testing.T) {
			sh, err := exec.LookPath(name)
			if err != nil {
				t.Skipf("%s is not installed, so the script is not checked under it", name)
			}
			base := t.TempDir()
			r := &notifyRig{sh: sh, base: base, ns: filepath.Join(base, "4242-ns dir"), work: filepath.Join(base, "work")}
			r.script = notifyFile(t, filepath.Join(r.ns, notifyAsset), []byte(notifyScript))
			r.capture = notifyFile(t, filepath.Join(r.ns, "task 1-1.json"), nil)
			r.recorder = notifyFile(t, filepath.Join(base, `rec 'q" $x`, "record *.sh"), []byte(notifyRecorder))
			notifyFile(t, filepath.Join(r.work, "a.txt"), nil)
			notifyFile(t, filepath.Join(r.work, "b.txt"), nil)
			f(t, r)
		})
	}
}

// run runs the script once with env on top of a small environment and reports
// an error unless it exits 0, silently and without leaving a pipe held. The
// returned wait blocks until every process the run started has exited: they
// all inherit one end of a pipe, so its other end reads EOF only then.
func (r *notifyRig) run(env []string, args ...string) (wait func() error, err error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.sh, append([]string{r.script}, args...)...)
	cmd.Dir = r.work
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + r.base}, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.ExtraFiles = &out, &out, []*os.File{pw}
	cmd.WaitDelay = time.Minute
	err = cmd.Run()
	pw.Close()
	if err != nil || out.Len() > 0 {
		pr.Close()
		return nil, fmt.Errorf("script run (a kill means it blocked): %v, output %q", err, out.String())
	}
	return func() error {
		defer pr.Close()
		pr.SetReadDeadline(time.Now().Add(time.Minute))
		if _, err := io.Copy(io.Discard, pr); err != nil {
			return fmt.Errorf("processes started by the script still running: %v", err)
		}
		return nil
	}, nil
}

// runAll is run followed by its wait, for callers on the test goroutine.
func (r *notifyRig) runAll(t *testing.T, env []string, args ...string) {
	t.Helper()
	wait, err := r.run(env, args...)
	if err == nil {
		err = wait()
	}
	if err != nil {
		t.Fatal(err)
	}
}

func (r *notifyRig) env(chain ...string) []string {
	return []string{"FLEETCOM_CAPTURE_FILE=" + r.capture, "FLEETCOM_NOTIFY_CHAIN=" + notifyChainEnv(chain)}
}

// captured returns the capture file's lines, failing unless each is whole.
func (r *notifyRig) captured(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(r.capture)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] != '\n' {
		t.Fatalf("capture file does not end in a newline: %q", data[max(0, len(data)-80):])
	}
	return strings.Split(string(data[:len(data)-1]), "\n")
}

// noLeftovers fails if anything besides the script and the capture file is in
// the namespace, such as a temp file the script did not remove.
func (r *notifyRig) noLeftovers(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir(r.ns)
	for _, e := range entries {
		if p := filepath.Join(r.ns, e.Name()); p != r.script && p != r.capture {
			t.Errorf("left in the namespace: %s", e.Name())
		}
	}
}

func TestNotifyScriptHostileInput(t *testing.T) {
	payloads := []string{
		`{"type":"agent-turn-complete","thread-id":"0197","last-assistant-message":"$(touch pwned)"}`,
		"`touch pwned`", "; touch pwned; echo", `'"'"' "quoted" 'single'`,
		"line one\nline two\r\nline three\n", "*", "?", "-n", "-e \\n %s %d %n", `back\slash\n\0`,
		`{"m":"héllo wörld 世界 🚀"}`, `{"pad":"` + strings.Repeat("x$y`z*", 100<<10/6) + `"}`,
	}
	notifyForShells(t, func(t *testing.T, r *notifyRig) {
		chain := []string{r.recorder, "two words", `it's "quoted"`, "$HOME", `back\slash`, "*",
			"-n", "?", "[ab].txt", "tab\there", "ünï", "$(touch pwned)", "`touch pwned`"}
		var want []string
		for i, p := range payloads {
			rec := filepath.Join(r.base, fmt.Sprintf("rec-%d", i))
			r.runAll(t, append(r.env(chain...), "NOTIFY_REC="+rec), p)
			got, err := os.ReadFile(rec)
			notifyMust(t, err)
			if diff := cmp.Diff(append(slices.Clone(chain), p), strings.Split(strings.TrimSuffix(string(got), "\x00"), "\x00")); diff != "" {
				t.Errorf("payload %d: chained argv (-want +got):\n%s", i, diff)
			}
			if env, _ := os.ReadFile(rec + ".env"); string(env) != "," {
				t.Errorf("payload %d: chained notifier saw fleetcom's variables: %q", i, env)
			}
			want = append(want, strings.NewReplacer("\r", "", "\n", "").Replace(p))
		}
		if diff := cmp.Diff(want, r.captured(t)); diff != "" {
			t.Errorf("capture lines (-want +got):\n%s", diff)
		}
		filepath.WalkDir(r.base, func(path string, d os.DirEntry, err error) error {
			if err == nil && d.Name() == "pwned" {
				t.Errorf("a payload or argument was evaluated: %s exists", path)
			}
			return nil
		})
		r.noLeftovers(t)
	})
}

// TestNotifyScriptDetaches makes the chain block on a FIFO the test holds:
// the script must have exited, capture written, before the chain is released.
func TestNotifyScriptDetaches(t *testing.T) {
	notifyForShells(t, func(t *testing.T, r *notifyRig) {
		fifo, done := filepath.Join(r.base, "release"), filepath.Join(r.base, "done")
		notifyMust(t, syscall.Mkfifo(fifo, 0o600))
		blocker := notifyFile(t, filepath.Join(r.base, "block.sh"), []byte("#!/bin/sh\ncat \"$1\" >/dev/null\n: >\"$2\"\n"))
		wait, err := r.run(r.env(blocker, fifo, done), `{"thread-id":"t"}`)
		notifyMust(t, err)
		if got := r.captured(t); !slices.Equal(got, []string{`{"thread-id":"t"}`}) {
			t.Errorf("capture = %q before the chain was released", got)
		}
		if _, err := os.Stat(done); err == nil {
			t.Fatal("chain finished before it was released")
		}
		opened := make(chan error, 1)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the chain to read
			if err == nil {
				err = f.Close()
			}
			opened <- err
		}()
		select {
		case err := <-opened:
			notifyMust(t, err)
		case <-time.After(time.Minute):
			t.Fatal("the chain never opened its fifo: it was not run")
		}
		notifyMust(t, wait())
		if _, err := os.Stat(done); err != nil {
			t.Errorf("released chain did not finish: %v", err)
		}
	})
}

// TestNotifyScriptCaptureGuards points FLEETCOM_CAPTURE_FILE at things it
// must not write through; the chain still runs and the script still exits 0.
func TestNotifyScriptCaptureGuards(t *testing.T) {
	for _, kind := range []string{"unset", "missing", "symlink", "fifo", "directory"} {
		t.Run(kind, func(t *testing.T) {
			notifyForShells(t, func(t *testing.T, r *notifyRig) {
				victim := r.capture // must stay empty or absent; a FIFO is never read
				switch kind {
				case "missing":
					notifyMust(t, os.Remove(r.capture))
				case "symlink":
					victim = notifyFile(t, filepath.Join(r.base, "elsewhere.json"), nil)
					notifyMust(t, os.Remove(r.capture))
					notifyMust(t, os.Symlink(victim, r.capture))
				case "fifo":
					victim = ""
					notifyMust(t, os.Remove(r.capture))
					notifyMust(t, syscall.Mkfifo(r.capture, 0o600))
				case "directory":
					victim = ""
					notifyMust(t, os.Remove(r.capture))
					notifyMust(t, os.Mkdir(r.capture, 0o700))
				}
				rec := filepath.Join(r.base, "rec")
				env := []string{"FLEETCOM_NOTIFY_CHAIN=" + r.recorder, "NOTIFY_REC=" + rec}
				if kind != "unset" {
					env = append(env, "FLEETCOM_CAPTURE_FILE="+r.capture)
				}
				r.runAll(t, env, "payload")
				if got, err := os.ReadFile(rec); err != nil || string(got) != r.recorder+"\x00payload\x00" {
					t.Errorf("chain argv = %q, %v; want it run with the payload", got, err)
				}
				if victim != "" {
					if data, err := os.ReadFile(victim); !os.IsNotExist(err) && (err != nil || len(data) > 0) {
						t.Errorf("written through the capture path: %q, %v", data, err)
					}
				}
				r.noLeftovers(t)
			})
		})
	}
}

// TestNotifyScriptLoops uses copies of the script that count their runs:
// a chain that leads back to fleetcom's notifier runs it at most once more.
func TestNotifyScriptLoops(t *testing.T) {
	counting := func(marker bool) []byte {
		s := strings.Replace(string([]byte(notifyScript)), notifyMarker+"\n",
			notifyMarker+"\nprintf x >>\"$NOTIFY_RAN\"\n", 1)
		if !marker {
			s = strings.Replace(s, notifyMarker, "# someone else's notifier", 1)
		}
		return []byte(s)
	}
	tests := []struct {
		name  string
		chain []string // @self, @marked and @unmarked name the copies
		runs  string
	}{
		{"itself", []string{"@self"}, "x"},
		{"another marked copy", []string{"@marked"}, "x"},
		{"marked copy found on PATH", []string{notifyAsset}, "x"},
		{"unmarked copy", []string{"@unmarked"}, "xx"},
		{"unmarked copy through sh", []string{"/bin/sh", "@unmarked"}, "xx"},
		{"program that looks like an option", []string{"-x"}, "x"},
		{"missing program", []string{"/nonexistent/notify"}, "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notifyForShells(t, func(t *testing.T, r *notifyRig) {
				notifyFile(t, r.script, counting(true))
				marked := notifyFile(t, filepath.Join(r.base, "path", notifyAsset), counting(true))
				unmarked := notifyFile(t, filepath.Join(r.base, "other", "notify.sh"), counting(false))
				at := strings.NewReplacer("@self", r.script, "@marked", marked, "@unmarked", unmarked)
				var chain []string
				for _, a := range tt.chain {
					chain = append(chain, at.Replace(a))
				}
				ran := filepath.Join(r.base, "ran")
				r.runAll(t, append(r.env(chain...), "NOTIFY_RAN="+ran,
					"PATH="+filepath.Dir(marked)+":"+os.Getenv("PATH")), `{"thread-id":"t"}`)
				if got, _ := os.ReadFile(ran); string(got) != tt.runs {
					t.Errorf("notifier runs = %q, want %q", got, tt.runs)
				}
				if got := r.captured(t); len(got) != 1 {
					t.Errorf("capture lines = %d, want 1", len(got))
				}
			})
		})
	}
}

// TestNotifyScriptConcurrent sends large notifications at once: each must
// land as one whole line.
func TestNotifyScriptConcurrent(t *testing.T) {
	notifyForShells(t, func(t *testing.T, r *notifyRig) {
		var want []string
		for i := range 20 {
			want = append(want, fmt.Sprintf(`{"thread-id":"%02d","pad":"%s"}`, i, strings.Repeat(string(rune('a'+i)), 50<<10)))
		}
		var wg sync.WaitGroup
		errs := make(chan error, len(want))
		for _, p := range want {
			wg.Go(func() {
				wait, err := r.run(r.env(), p)
				if err == nil {
					err = wait()
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			notifyMust(t, err)
		}
		got := r.captured(t)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("capture lines differ (-want +got):\n%.2000s", diff)
		}
		r.noLeftovers(t)
	})
}

package picker

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

func TestPickRefuses(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	pipes := Options{In: r, Out: w, FZF: "-"}
	if _, err := Pick(sample, pipes); !errors.Is(err, ErrNoTerminal) {
		t.Errorf("on pipes: %v", err)
	}
	for _, bad := range []string{"", "a b", "x;rm", "$(id)", "a'b", "k\n", strings.Repeat("k", 300), "ключ"} {
		if _, err := Pick([]Row{{Key: "ok"}, {Key: bad}}, pipes); !errors.Is(err, ErrBadKey) {
			t.Errorf("key %q: %v", bad, err)
		}
	}
	if _, err := Pick(nil, pipes); !errors.Is(err, ErrNoMatch) || !errors.Is(err, ErrCancelled) {
		t.Errorf("no rows: %v", err)
	}
	if _, err := Pick(sample, Options{In: r, Out: w, Preview: []string{"a\x00b"}}); err == nil {
		t.Error("a NUL in the preview argv was accepted")
	}
	t.Setenv("TERM", "dumb")
	if _, err := builtin(sample, Options{}, nil, nil); !errors.Is(err, ErrNoTerminal) {
		t.Errorf("TERM=dumb: %v", err)
	}
}

// TestPickWithoutTerminal runs the helper with no controlling terminal and
// pipes for stdin and stdout, as under cron or CI: Pick says so.
func TestPickWithoutTerminal(t *testing.T) {
	env, result := writeConfig(t, t.TempDir(), helperConfig{Rows: sample, Header: sampleHeader, FZF: "-"})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.Output()
	b, _ := os.ReadFile(result)
	if !strings.HasPrefix(string(b), "error "+ErrNoTerminal.Error()) || len(out) != 0 || err == nil {
		t.Errorf("result %q, stdout %q, %v", b, out, err)
	}
}

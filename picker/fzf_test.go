package picker

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/testexec"
)

// TestPreviewCommandInShells runs the preview template in every shell fzf
// might be configured to use, with fzf's quoting of the key: each shell must
// pass the argv words through exactly.
func TestPreviewCommandInShells(t *testing.T) {
	argv := []string{"printf", `[%s]`, `it's "x" \ $HOME $(id) ` + "`id`" + ` {q} {} ;&|<>*?~ ünï`, "", "new\nline", "-n"}
	key := sample[0].Key
	cmd := strings.Replace(previewCommand(len(argv)), "{2}", "'"+key+"'", 1)
	var want strings.Builder
	for _, a := range argv[2:] {
		want.WriteString("[" + a + "]")
	}
	want.WriteString("[" + key + "]")
	for _, sh := range []string{"sh", "bash", "zsh", "dash", "fish"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Errorf("%s is not installed; .ci/run installs it", sh)
			} else {
				t.Logf("skipping %s: not installed (.ci/run installs it)", sh)
			}
			continue
		}
		c := exec.Command(path, "-c", cmd)
		c.Env = append(os.Environ(), previewEnv(argv)...)
		out, err := c.Output()
		if err != nil || string(out) != want.String() {
			t.Errorf("%s -c %s: %q (%v), want %q", sh, cmd, out, err, want.String())
		}
	}
}

// TestFZFArgsFilter runs the installed fzf with the picker's arguments and
// input in filter mode (no terminal): it must accept every option, match
// only the shown columns, and print lines fzfResult reads back.
func TestFZFArgsFilter(t *testing.T) {
	fzf := needTool(t, "fzf")
	list, window := fzfLayout(120, true)
	input, header := fzfInput(newTable(sampleHeader, sample), sample, list)
	if strings.ContainsAny(header, "\t\n") || !strings.HasPrefix(header, "TOOL    AGE  TITLE") {
		t.Errorf("header %q", header)
	}
	run := func(query string) ([]byte, error) {
		// --sync: with --no-sort, filter mode would stream the lines as
		// shown (fzf 0.38), where the interactive mode prints them whole.
		args := append(fzfArgs(header, 2, window, false), "--sync", "--filter="+query)
		c := exec.Command(fzf, args...)
		c.Stdin = bytes.NewReader(input)
		c.Env = append(os.Environ(), "FZF_DEFAULT_OPTS=--multi --print-query --read0 --tac --nth=1 --with-nth=1 --exact")
		return c.Output()
	}
	out, err := run("parser")
	if i, rerr := fzfResult(err, out, sample); rerr != nil || !slices.Equal(i, []int{1}) {
		t.Errorf("filter parser: %q %v: %v, %v", out, err, i, rerr)
	}
	// The keys are not shown, so they do not match.
	out, err = run("0f8b2c3e")
	if _, rerr := fzfResult(err, out, sample); !errors.Is(rerr, ErrNoMatch) {
		t.Errorf("filter on a key: %q %v: %v", out, err, rerr)
	}
}

func TestFZFResult(t *testing.T) {
	exit := func(code string) error { return exec.Command("/bin/sh", "-c", "exit "+code).Run() }
	for _, c := range []struct {
		err  error
		out  string
		want int
		is   error
	}{
		{nil, "1\t" + sample[1].Key + "\tcodex  3d\n", 1, nil},
		{nil, "query\nctrl-x\n2\t" + sample[2].Key + "\tgrok\n", 2, nil},                            // --print-query, --expect
		{nil, "0\t" + sample[0].Key + "\tclaude\x00", 0, nil},                                       // --print0
		{nil, "1\t" + sample[0].Key + "\tclaude\n", -1, nil},                                        // index and key disagree
		{nil, "ctrl-x\n2\t" + sample[2].Key + "\tgrok\n0\t" + sample[0].Key + "\tclaude\n", 2, nil}, // --multi: in fzf's order
		{nil, "7\t" + sample[0].Key + "\tclaude\n", -1, nil},
		{nil, "", -1, nil},
		{exit("1"), "", -1, ErrNoMatch},
		{exit("130"), "", -1, ErrCancelled},
		{exit("2"), "", -1, nil},
	} {
		chosen, err := fzfResult(c.err, []byte(c.out), sample)
		i := -1
		if len(chosen) > 0 {
			i = chosen[0]
		}
		if i != c.want || (c.want < 0) != (err != nil) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("fzfResult(%v, %q) = %v, %v", c.err, c.out, chosen, err)
		}
	}
	// Several chosen, each once.
	out := "2\t" + sample[2].Key + "\tgrok\n0\t" + sample[0].Key + "\tclaude\n2\t" + sample[2].Key + "\tgrok\n"
	if chosen, err := fzfResult(nil, []byte(out), sample); err != nil || !slices.Equal(chosen, []int{2, 0}) {
		t.Errorf("fzfResult of three lines = %v, %v", chosen, err)
	}
}

// TestFZFExitedLeavesChild: an fzf that has printed its choice and exited
// while something it started still holds its output (an execute binding
// left running) gives the choice at once, not when that ends.
func TestFZFExitedLeavesChild(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fzf")
	script := "#!/bin/sh\ncat >/dev/null\nprintf '1\\tbravo:01a22b4e-0000-7000-8000-000000000000\\tshown\\n'\nsleep 300 &\necho $! > \"$0.pid\"\nexit 0\n"
	if err := testexec.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if b, err := os.ReadFile(fake + ".pid"); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	type result struct {
		i   []int
		err error
	}
	done := make(chan result, 1)
	go func() {
		i, err := runFZF(fake, sample, Options{Header: sampleHeader}, null)
		done <- result{i, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || !slices.Equal(r.i, []int{1}) {
			t.Errorf("runFZF = %v, %v", r.i, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("runFZF still waits 30 s after fzf exited")
	}
}

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// The manual page comes from the command table and renders cleanly: every
// command and flag is in it, and man has nothing to warn about.
func TestManPage(t *testing.T) {
	page := manPage()
	for _, c := range commandTable() {
		if c.hidden {
			continue
		}
		if !strings.Contains(page, ".SS "+roff(c.name)) {
			t.Errorf("the page has no section for %s", c.name)
		}
		for _, f := range c.flags {
			if !strings.Contains(page, ".B "+roff(f.name)) {
				t.Errorf("the page does not describe %s %s", c.name, f.name)
			}
		}
	}
	// Each agent's variables, described by its Spec.
	for _, a := range agents.All() {
		for _, want := range []string{".B " + roff(a.BinVar()), ".B " + roff(a.HomeVar) + "\n" + roff(a.HomeHelp())} {
			if !strings.Contains(page, want) {
				t.Errorf("the page lacks %q", want)
			}
		}
	}
	man, err := exec.LookPath("man")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("man is not installed, and .ci/run installs it")
		}
		t.Skip("man is not installed: the rendering is not checked here")
	}
	cmd := exec.Command(man, "--warnings", "-l", "-")
	cmd.Stdin = strings.NewReader(page)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MAN_KEEP_FORMATTING=0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("man: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(string(out), "fleetcom resume [TOOL] [ID|PREFIX|NAME]") {
		t.Errorf("rendered page:\n%s", out)
	}
}

package safe

import (
	"os"
	"os/exec"
	"testing"
)

// hostile are words a directory or a value may hold that break naive
// quoting in at least one shell.
var hostile = []string{
	`x\'; touch /tmp/pwned #`, `a\\b`, `end\`, `'`, `''`, `"`, `$(id)`, "`id`", `$HOME`,
	"tab\there", "new\nline", `{a,b}`, `~root`, `*`, `a b  c`, "ünï çødé", `%self`, `=ls`,
	`\'`, `\\'`, `-n`, `!!`, `#`, `;`, `&`, `|`, `(x)`, "\x01ctl",
}

// TestQuoteInRealShells has each shell fleetcom supports read the quoted
// word back and print it: every one must print exactly the original.
func TestQuoteInRealShells(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "dash", "fish"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Errorf("%s is not installed; .ci/run installs it", sh)
			} else {
				t.Logf("skipping %s: not installed (.ci/run installs it)", sh)
			}
			continue
		}
		for _, s := range hostile {
			script := "printf '%s' " + Quote(s)
			out, err := exec.Command(path, "-c", script).Output()
			if err != nil || string(out) != s {
				t.Errorf("%s -c %s: got %q (%v), want %q", sh, script, out, err, s)
			}
		}
	}
}

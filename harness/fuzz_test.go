package harness

import (
	"regexp"
	"testing"
)

// Seed corpora live in testdata/fuzz/<target>/ beside this file (Go's own
// layout, so `go test -fuzz` extends them); the f.Add seeds below repeat the
// most important shapes so a plain `go test` always runs them.

// versionPattern is what findVersion hand-codes.
var versionPattern = regexp.MustCompile(`\b\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?\b`)

func TestFindVersion(t *testing.T) {
	cases := map[string]string{
		"2.1.332 (Claude Code)\n":       "2.1.332",
		"codex-cli 0.171.0\n":           "0.171.0",
		"grok 1.0.41 (4220f3b224a6)\n":  "1.0.41",
		"tool v1.2.3\n":                 "",
		"tool 1.2.3-beta.4+build.5 (x)": "1.2.3-beta.4",
		"tool 1.2.3- next":              "1.2.3",
		"tool 1.2.3-.. next":            "1.2.3",
		"tool 1.2.3_x 4.5.6":            "4.5.6",
		"1.2 and 10.20.30.40":           "10.20.30",
		"1.2.3a 2.3.4":                  "2.3.4",
		"":                              "",
	}
	for in, want := range cases {
		if got := findVersion([]byte(in)); got != want {
			t.Errorf("findVersion(%q) = %q, want %q", in, got, want)
		}
		if got := string(versionPattern.Find([]byte(in))); got != want {
			t.Errorf("the pattern finds %q in %q, the table says %q", got, in, want)
		}
	}
}

func FuzzFindVersion(f *testing.F) {
	for _, s := range []string{"2.1.332 (Claude Code)", "codex-cli 0.171.0", "1.2.3-rc.1+x_y", "1.2.3-a-", "x1.2.3 1.2.3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := findVersion(b), string(versionPattern.Find(b)); got != want {
			t.Fatalf("findVersion(%q) = %q, the pattern finds %q", b, got, want)
		}
	})
}

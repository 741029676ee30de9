package safe

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

var branches = map[string]bool{
	"main": true, "feat/login": true, "wt/branch": true, "release-1.2": true, "user_x/fix.b": true,
	"": false, "HEAD": false, "-rf": false, "a..b": false, "a//b": false, "/a": false, "a/": false,
	".hidden": false, "a/.b": false, "a.lock": false, "a/b.lock/c": false, "a.": false,
	"a b": false, "a'b": false, "a;rm": false, "$(x)": false, "a@{1}": false, "a~1": false,
	"a^": false, "a:b": false, "a?": false, "a*": false, "a[": false, "a\\b": false, "a\nb": false,
	"é": false, strings.Repeat("a", 201): false,
}

func TestBranch(t *testing.T) {
	for s, want := range branches {
		if got := Branch(s); got != want {
			t.Errorf("Branch(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestBranchSubsetOfGit: every name Branch accepts, git accepts as a
// branch name too (a subset: some names git takes are refused here).
func TestBranchSubsetOfGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed: .ci/run installs it")
		}
		t.Skip("git is not installed")
	}
	for s, want := range branches {
		if !want {
			continue
		}
		if out, err := exec.Command("git", "check-ref-format", "--branch", s).CombinedOutput(); err != nil {
			t.Errorf("Branch(%q) accepts what git refuses: %s", s, out)
		}
	}
}

func TestCommitHash(t *testing.T) {
	for s, want := range map[string]bool{
		strings.Repeat("a", 40): true, strings.Repeat("0", 64): true,
		strings.Repeat("A", 40): false, strings.Repeat("a", 39): false, "": false, strings.Repeat("g", 40): false,
	} {
		if got := CommitHash(s); got != want {
			t.Errorf("CommitHash(%q) = %v, want %v", s, got, want)
		}
	}
}

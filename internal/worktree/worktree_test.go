package worktree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests make real repositories with git, remove worktrees the ways
// people do, then check that Of reads what git left and that the line it
// gives, run by a shell, brings the directory back.

func gitOK(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed: .ci/run installs it")
		}
		t.Skip("git is not installed")
	}
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL": os.DevNull} {
		t.Setenv(k, v)
	}
}

func git(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// tempDir is a physical temporary directory with a space in its path.
func tempDir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d = filepath.Join(d, "src dir")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// newRepo makes a repository with one commit on main.
func newRepo(t *testing.T, dir string, bare bool) {
	t.Helper()
	if bare {
		src := dir + ".src"
		newRepo(t, src, false)
		git(t, "clone", "-q", "--bare", src, dir)
		return
	}
	git(t, "init", "-q", "-b", "main", dir)
	git(t, "-C", dir, "commit", "-q", "--allow-empty", "-m", "first")
}

// restores runs w's line in a shell and checks that dir is a checkout of
// want again.
func restores(t *testing.T, w Worktree, want string) {
	t.Helper()
	line := w.Line()
	if line == "" {
		t.Fatalf("no line for %+v", w)
	}
	if out, err := exec.Command("sh", "-c", line).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	if got := strings.TrimSpace(git(t, "-C", w.Dir, "rev-parse", "--abbrev-ref", "HEAD")); got != want {
		t.Fatalf("after %s: HEAD is %s, want %s", line, got, want)
	}
}

func TestRegisteredSibling(t *testing.T) {
	gitOK(t)
	src := tempDir(t)
	repo, wt := filepath.Join(src, "app"), filepath.Join(src, "app it's-login")
	newRepo(t, repo, false)
	git(t, "-C", repo, "worktree", "add", "-q", "-b", "feat/login", wt)
	if _, ok := Of(wt, "feat/login"); ok {
		t.Fatal("a worktree that is there is not gone")
	}
	if err := os.RemoveAll(wt); err != nil {
		t.Fatal(err)
	}
	// The agent's record is ignored when git's entry names the branch.
	w, ok := Of(wt, "other")
	if !ok || w.Repo != repo || w.Branch != "feat/login" || !w.Registered || w.Locked || w.Probable {
		t.Fatalf("Of = %+v, %v", w, ok)
	}
	if !strings.Contains(w.Line(), " worktree add -f ") {
		t.Errorf("a registered worktree's line takes the entry over: %s", w.Line())
	}
	// Without -f, git refuses: the entry is why the line has it.
	if out, err := exec.Command("git", "-C", repo, "worktree", "add", wt, "feat/login").CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "missing but already registered worktree") {
		t.Fatalf("git worktree add onto a registered, missing path: %v\n%s", err, out)
	}
	restores(t, w, "feat/login")
}

func TestInsideRepoLockedAndDetached(t *testing.T) {
	gitOK(t)
	src := tempDir(t)
	repo := filepath.Join(src, "app")
	newRepo(t, repo, false)
	locked, detached := filepath.Join(repo, ".worktrees", "a"), filepath.Join(repo, ".worktrees", "b")
	git(t, "-C", repo, "worktree", "add", "-q", "-b", "a", locked)
	git(t, "-C", repo, "worktree", "lock", locked)
	git(t, "-C", repo, "worktree", "add", "-q", "--detach", detached)
	commit := strings.TrimSpace(git(t, "-C", repo, "rev-parse", "HEAD"))
	os.RemoveAll(filepath.Join(repo, ".worktrees"))

	w, ok := Of(locked, "")
	if !ok || w.Repo != repo || w.Branch != "a" || !w.Locked {
		t.Fatalf("Of(locked) = %+v, %v", w, ok)
	}
	if !strings.Contains(w.Line(), "worktree unlock ") {
		t.Errorf("a locked entry is unlocked first: %s", w.Line())
	}
	restores(t, w, "a")

	// The line took over its own entry and no other: the detached one is
	// still there to be found.
	w, ok = Of(detached, "main")
	if !ok || w.Branch != "" || w.Commit != commit {
		t.Fatalf("Of(detached) = %+v, %v", w, ok)
	}
	restores(t, w, "HEAD")
}

func TestBare(t *testing.T) {
	gitOK(t)
	src := tempDir(t)
	bare := filepath.Join(src, "app.git")
	newRepo(t, bare, true)
	wt := filepath.Join(src, "feature")
	git(t, "-C", bare, "worktree", "add", "-q", "-b", "feature", wt)
	os.RemoveAll(wt)
	w, ok := Of(wt, "")
	if !ok || w.Repo != bare || w.Branch != "feature" || !w.Registered {
		t.Fatalf("Of = %+v, %v", w, ok)
	}
	restores(t, w, "feature")
}

// TestPruned: once git dropped its entry, only the branch the agent
// recorded points at a repository, and only one that would take it.
func TestPruned(t *testing.T) {
	gitOK(t)
	src := tempDir(t)
	repo, wt := filepath.Join(src, "app"), filepath.Join(src, "app-login")
	newRepo(t, repo, false)
	newRepo(t, filepath.Join(src, "unrelated"), false)
	git(t, "-C", repo, "worktree", "add", "-q", "-b", "feat/login", wt)
	os.RemoveAll(wt)
	git(t, "-C", repo, "worktree", "prune")
	if w, ok := Of(wt, ""); ok {
		t.Fatalf("no entry and no branch: nothing to say, got %+v", w)
	}
	if w, ok := Of(wt, "main"); ok {
		t.Fatalf("main is checked out in both repositories: nothing to say, got %+v", w)
	}
	if w, ok := Of(wt, "feat/login; rm -rf ~"); ok {
		t.Fatalf("a malformed branch is no evidence, got %+v", w)
	}
	w, ok := Of(wt, "feat/login")
	if !ok || w.Repo != repo || !w.Probable || w.Registered {
		t.Fatalf("Of = %+v, %v", w, ok)
	}
	if strings.Contains(w.Line(), "-f") {
		t.Errorf("nothing to force: %s", w.Line())
	}
	// A packed branch counts as well.
	git(t, "-C", repo, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(repo, ".git", "refs", "heads", "feat", "login")); err == nil {
		t.Fatal("pack-refs left the branch loose")
	}
	if w2, ok := Of(wt, "feat/login"); !ok || w2 != w {
		t.Fatalf("packed: Of = %+v, %v", w2, ok)
	}
	restores(t, w, "feat/login")
}

// TestPlainGone: a directory that was never a worktree says nothing, even
// beside repositories and with a branch recorded.
func TestPlainGone(t *testing.T) {
	gitOK(t)
	src := tempDir(t)
	newRepo(t, filepath.Join(src, "app"), false)
	git(t, "-C", filepath.Join(src, "app"), "worktree", "add", "-q", "-b", "other", filepath.Join(src, "other"))
	plain := filepath.Join(src, "notes")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(plain)
	for _, branch := range []string{"", "main", "HEAD", "other", "absent"} {
		if w, ok := Of(plain, branch); ok {
			t.Errorf("Of(plain, %q) = %+v", branch, w)
		}
	}
	if _, ok := Of("relative/dir", "main"); ok {
		t.Error("a relative directory is no evidence")
	}
}

// TestBounded: a folder of many children is looked at only so far.
func TestBounded(t *testing.T) {
	src := tempDir(t)
	for i := range 2 * Budget {
		if err := os.Mkdir(filepath.Join(src, "d"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &search{left: Budget, seen: map[string]bool{}}
	for _, c := range s.children(src) {
		s.repo(c)
	}
	if s.left < -1 {
		t.Errorf("spent %d of a budget of %d", Budget-s.left, Budget)
	}
	if _, ok := Of(filepath.Join(src, "gone"), "main"); ok {
		t.Error("nothing there")
	}
}

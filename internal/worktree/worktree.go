// Package worktree tells, from files alone, whether a directory that no
// longer exists was a git worktree, and which line of git brings it back.
// It never runs git: it reads what git leaves in a repository's git
// directory, a bounded number of files near the directory.
package worktree

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Budget is how many files and folders one search may look at: the
// existing ancestors of the directory and their direct children, where
// worktrees and their repositories usually sit (side by side, or one inside
// the other), and no deeper.
const Budget = 300

// maxChildren is how many entries of one folder are looked at.
const maxChildren = 100

// Worktree is what the files say about a directory that was a worktree.
type Worktree struct {
	Dir  string // the directory that is gone
	Repo string // where `git -C` runs: the main checkout, or a bare repository
	// Branch is the branch to check out again (a name safe.Branch passed),
	// Commit the commit of a worktree that was detached; "" when unknown.
	Branch, Commit string
	// Registered: git still lists the worktree (its entry in the
	// repository's worktrees folder names the directory), so `worktree
	// add` needs the entry cleared first. Locked: that entry is locked.
	Registered, Locked bool
	// Probable: no entry names the directory (pruned, or never a worktree),
	// but one repository nearby, and only one, holds the branch the agent
	// recorded there, and has it checked out nowhere.
	Probable bool
}

// Of looks for the repository whose worktree dir was. dir must be absolute
// and gone; branch is what the agent's store recorded as the checkout's
// branch ("" for none), evidence that is used only when safe.Branch passes
// it.
func Of(dir, branch string) (Worktree, bool) {
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(dir) || dir == "/" {
		return Worktree{}, false
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		return Worktree{}, false
	}
	if !safe.Branch(branch) {
		branch = ""
	}
	s := &search{left: Budget, seen: map[string]bool{}}
	want := filepath.Join(dir, ".git")
	var ancestors []string
	for a := filepath.Dir(dir); ; a = filepath.Dir(a) {
		if s.isDir(a) {
			ancestors = append(ancestors, a)
		}
		if a == "/" || s.left <= 0 {
			break
		}
	}
	var repos []repo
	look := func(c string) (Worktree, bool) {
		r, ok := s.repo(c)
		if !ok {
			return Worktree{}, false
		}
		repos = append(repos, r)
		if w, ok := s.registered(r, want); ok {
			w.Dir = dir
			if w.Branch == "" && w.Commit == "" {
				w.Branch = branch
			}
			return w, true
		}
		return Worktree{}, false
	}
	// The ancestors themselves first (a worktree inside its repository),
	// then their children, nearest first (a worktree beside it).
	for _, a := range ancestors {
		if w, ok := look(a); ok {
			return w, true
		}
	}
	for _, a := range ancestors {
		for _, c := range s.children(a) {
			if w, ok := look(c); ok {
				return w, true
			}
		}
	}
	if branch == "" {
		return Worktree{}, false
	}
	var holders []repo
	for _, r := range repos {
		if s.hasBranch(r, branch) && !s.checkedOut(r, branch) {
			holders = append(holders, r)
		}
	}
	if len(holders) != 1 {
		return Worktree{}, false
	}
	return Worktree{Dir: dir, Repo: holders[0].work, Branch: branch, Probable: true}, true
}

// Line is the shell line that brings the worktree back: `git worktree add`,
// forced when git still has an entry for it (`add` refuses a path that is
// missing but registered; -f takes the entry over, and touches no other
// one, as `worktree prune` would), after `unlock` when the entry is locked.
// The guard -f also lifts, a branch checked out in another worktree, can
// only be this entry's own: git lets no other checkout take its branch.
// "" when nothing says what to check out. Every word is quoted.
func (w Worktree) Line() string {
	ref := w.Branch
	if ref == "" {
		ref = w.Commit
	}
	if ref == "" {
		return ""
	}
	git := "git -C " + safe.Quote(w.Repo) + " worktree "
	add := "add "
	if w.Registered {
		add = "add -f "
	}
	line := git + add + safe.Quote(w.Dir) + " " + safe.Quote(ref)
	if w.Locked {
		line = git + "unlock " + safe.Quote(w.Dir) + " && " + line
	}
	return line
}

// repo is a repository found: its common git directory, and where `git -C`
// runs for it.
type repo struct{ git, work string }

// search is one bounded look around a gone directory.
type search struct {
	left int
	seen map[string]bool // common git directories already looked at
}

// spend counts one file operation; false once the budget is gone.
func (s *search) spend() bool {
	s.left--
	return s.left >= 0
}

func (s *search) isDir(p string) bool {
	if !s.spend() {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func (s *search) read(p string, max int64) []byte {
	if !s.spend() {
		return nil
	}
	b, err := safe.ReadFile(p, max, 0)
	if err != nil {
		return nil
	}
	return b
}

// children are the folders in dir, at most maxChildren of them.
func (s *search) children(dir string) []string {
	if !s.spend() {
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(maxChildren)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// repo reports the repository dir is the top of, once per repository: a
// checkout with a .git folder, a checkout whose .git file points at its git
// directory (a worktree, or a separate git directory), or a bare
// repository with worktrees.
func (s *search) repo(dir string) (repo, bool) {
	if !s.spend() {
		return repo{}, false
	}
	var r repo
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err == nil && fi.IsDir():
		r = repo{git: dotgit, work: dir}
	case err == nil && fi.Mode().IsRegular():
		gd, ok := pointer(s.read(dotgit, 4096), "gitdir: ", dir)
		if !ok {
			return repo{}, false
		}
		common := gd
		if c, ok := pointer(s.read(filepath.Join(gd, "commondir"), 4096), "", gd); ok {
			common = c
		}
		r = repo{git: common, work: common}
		if filepath.Base(common) == ".git" {
			r.work = filepath.Dir(common)
		}
	case filepath.Ext(dir) == ".git" || s.isDir(filepath.Join(dir, "worktrees")):
		// Bare: its worktrees folder is what matters here.
		r = repo{git: dir, work: dir}
	default:
		return repo{}, false
	}
	if s.seen[r.git] {
		return repo{}, false
	}
	s.seen[r.git] = true
	return r, true
}

// registered looks for the entry of r's worktrees folder whose gitdir file
// names want (<worktree>/.git).
func (s *search) registered(r repo, want string) (Worktree, bool) {
	admin := filepath.Join(r.git, "worktrees")
	if !s.spend() {
		return Worktree{}, false
	}
	f, err := os.Open(admin)
	if err != nil {
		return Worktree{}, false
	}
	entries, _ := f.ReadDir(maxChildren)
	f.Close()
	for _, e := range entries {
		entry := filepath.Join(admin, e.Name())
		// Git writes the path absolute, or relative to the entry with
		// worktree.useRelativePaths.
		p, ok := pointer(s.read(filepath.Join(entry, "gitdir"), 4096), "", entry)
		if !ok || p != want {
			continue
		}
		w := Worktree{Repo: r.work, Registered: true}
		w.Branch, w.Commit = head(s.read(filepath.Join(entry, "HEAD"), 4096))
		_, err := os.Lstat(filepath.Join(entry, "locked"))
		w.Locked = err == nil
		return w, true
	}
	return Worktree{}, false
}

// hasBranch reports that r holds branch, loose or packed.
func (s *search) hasBranch(r repo, branch string) bool {
	if s.spend() {
		if fi, err := os.Stat(filepath.Join(r.git, "refs", "heads", filepath.FromSlash(branch))); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	packed := s.read(filepath.Join(r.git, "packed-refs"), 8<<20)
	for _, line := range bytes.Split(packed, []byte("\n")) {
		if _, ref, ok := bytes.Cut(line, []byte(" ")); ok && string(ref) == "refs/heads/"+branch {
			return true
		}
	}
	return false
}

// checkedOut reports that branch is r's HEAD or that of one of its
// worktrees: `worktree add` would refuse it.
func (s *search) checkedOut(r repo, branch string) bool {
	heads := []string{filepath.Join(r.git, "HEAD")}
	admin := filepath.Join(r.git, "worktrees")
	if s.spend() {
		if f, err := os.Open(admin); err == nil {
			names, _ := f.Readdirnames(maxChildren)
			f.Close()
			for _, n := range names {
				heads = append(heads, filepath.Join(admin, n, "HEAD"))
			}
		}
	}
	for _, h := range heads {
		if b, _ := head(s.read(h, 4096)); b == branch {
			return true
		}
	}
	return false
}

// head reads a HEAD file: the branch it points at, or the commit of a
// detached one; both "" unless valid.
func head(data []byte) (branch, commit string) {
	t := strings.TrimSpace(string(data))
	if b, ok := strings.CutPrefix(t, "ref: refs/heads/"); ok {
		if safe.Branch(b) {
			return b, ""
		}
		return "", ""
	}
	if safe.CommitHash(t) {
		return "", t
	}
	return "", ""
}

// pointer reads a file holding one path after prefix ("gitdir: "), made
// absolute against base when git wrote it relative.
func pointer(data []byte, prefix, base string) (string, bool) {
	t, ok := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), prefix)
	if !ok || t == "" || strings.ContainsAny(t, "\n\x00") {
		return "", false
	}
	if !filepath.IsAbs(t) {
		t = filepath.Join(base, t)
	}
	return filepath.Clean(t), true
}

package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Claude keeps a directory's transcripts in one project folder named by its
// slug. The slug is lossy (/a/b.c, /a/b_c and /a/b-c share a folder) and, past
// 200 characters, ends in a hash fleetcom does not rely on recomputing; so a
// transcript belongs to a directory only when the cwd recorded on its
// conversation lines says so.

// slugLimit is the length past which Claude cuts a slug and appends a hash.
const slugLimit = 200

// projectFolders returns the project folders that can hold cwd's transcripts:
// its slug's folder, or for a long slug every folder named by the cut slug
// and a '-'.
func projectFolders(home, cwd string) []string {
	projects := filepath.Join(home, "projects")
	slug := projectSlug(cwd)
	if len(slug) <= slugLimit {
		return []string{filepath.Join(projects, slug)}
	}
	entries, _ := os.ReadDir(projects)
	var out []string
	for _, e := range entries {
		if e.IsDir() && folderOf(e.Name(), cwd) {
			out = append(out, filepath.Join(projects, e.Name()))
		}
	}
	return out
}

// folderOf reports whether a project folder name can be cwd's.
func folderOf(name, cwd string) bool {
	slug := projectSlug(cwd)
	if len(slug) <= slugLimit {
		return name == slug
	}
	return strings.HasPrefix(name, slug[:slugLimit]+"-")
}

// transcriptHead is what one pass over the top of a transcript learns: its first
// conversation line and its title.
type transcriptHead struct {
	first transcriptLine
	ok    bool // a user or assistant line exists
	title string
}

// headLimit bounds readHead: past it, a transcript's head holds sub-agents'
// and tools' lines, not the user's first words.
const headLimit = 16 << 20

// readHead reads the top of a transcript, at most headLimit bytes. Lines of
// sub-agents and tool results (megabytes of them open some transcripts) are
// skipped before anything is decoded. Its last answer is kept (LastRead).
func readHead(path string) transcriptHead { return heads.Of(path, scanHead) }

// heads is readHead's last answer.
var heads harness.LastRead[transcriptHead]

func scanHead(path string) transcriptHead {
	var h transcriptHead
	read := 0
	harness.EachLine(path, func(line []byte) bool {
		if read += len(line) + 1; read > headLimit {
			return false
		}
		if bytes.Contains(line, []byte(`"isSidechain":true`)) || bytes.Contains(line, []byte(`"type":"tool_result"`)) {
			return true
		}
		if !h.ok && (bytes.Contains(line, []byte(`"type":"user"`)) || bytes.Contains(line, []byte(`"type":"assistant"`))) {
			var l transcriptLine
			if json.Unmarshal(line, &l) == nil && l.isConversation() {
				h.first, h.ok = l, true
			}
		}
		if h.title == "" {
			h.title = userPrompt(line)
		}
		return !h.ok || h.title == ""
	})
	return h
}

func (h transcriptHead) found(home, id, cwd string, mod time.Time) harness.Found {
	started, _ := time.Parse(time.RFC3339Nano, h.first.Timestamp)
	return harness.Found{Tool: "claude", ID: id, Cwd: cwd, Home: home, Title: h.title, Started: started, Modified: mod}
}

// Discover implements Finder: the transcripts of cwd's project folders whose
// conversation lines record cwd.
func (claude) Discover(home, cwd, _ string) ([]harness.Found, error) {
	seen := map[string]bool{}
	var out []harness.Found
	for _, dir := range projectFolders(home, cwd) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".jsonl")
			if !ok || !spec.ID.Valid(id) || !e.Type().IsRegular() || seen[id] {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			h := readHead(filepath.Join(dir, e.Name()))
			if !h.ok || !safe.SameDir(h.first.Cwd, cwd) {
				continue
			}
			seen[id] = true
			out = append(out, h.found(home, id, cwd, fi.ModTime()))
		}
	}
	harness.SortNewest(out)
	return out, nil
}

// LookupIn implements harness.NearLookup: Lookup, trying dir's own project
// folders first, where a run's conversation is, before every folder.
func (c claude) LookupIn(home, dir, id string) (harness.Found, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	for _, folder := range projectFolders(home, dir) {
		if path := filepath.Join(folder, id+".jsonl"); regular(path) {
			return c.found(home, id, path)
		}
	}
	return c.Lookup(home, id)
}

func regular(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular()
}

// Lookup implements Finder: the single projects/*/<id>.jsonl, which must hold
// a conversation whose recorded cwd is a directory of that project folder.
func (c claude) Lookup(home, id string) (harness.Found, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(home, "projects", "*", id+".jsonl"))
	var paths []string
	for _, m := range matches {
		if regular(m) {
			paths = append(paths, m)
		}
	}
	switch {
	case len(paths) == 0:
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "no claude transcript %s.jsonl in %s", id, filepath.Join(home, "projects"))
	case len(paths) > 1:
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "claude conversation %s has transcripts in %d project folders", id, len(paths))
	}
	return c.found(home, id, paths[0])
}

// found is the conversation of transcript path, which must hold a message
// and sit in the project folder of the directory it records.
func (claude) found(home, id, path string) (harness.Found, error) {
	h := readHead(path)
	if !h.ok {
		return harness.Found{}, harness.Refuse(harness.ErrEmptyConversation, "claude transcript %s holds no message (quit before the first prompt)", path)
	}
	cwd := h.first.Cwd
	folder := filepath.Base(filepath.Dir(path))
	if !filepath.IsAbs(cwd) || !folderOf(folder, cwd) && !folderOf(folder, safe.PhysicalOf(cwd)) {
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "claude transcript %s records directory %q, which its project folder is not named after", path, cwd)
	}
	return h.found(home, id, safe.PhysicalOf(cwd), harness.ModTime(path)), nil
}

// Adoptable implements Finder: a transcript of id in dir's project folders with a
// conversation line recording dir.
func (c claude) Adoptable(home, dir, id string) error {
	if err := spec.ValidateID(id); err != nil {
		return harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	var first error
	for _, folder := range projectFolders(home, dir) {
		path := filepath.Join(folder, id+".jsonl")
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		h := readHead(path)
		switch {
		case !h.ok:
			first = harness.Refuse(harness.ErrEmptyConversation, "claude transcript %s holds no message (quit before the first prompt)", path)
		case !safe.SameDir(h.first.Cwd, dir):
			first = harness.Refuse(harness.ErrElsewhere, "claude transcript %s was recorded in %q, not in %s", path, h.first.Cwd, dir)
		default:
			return nil
		}
	}
	if first != nil {
		return first
	}
	f, err := c.Lookup(home, id)
	if err != nil {
		return err
	}
	return harness.Refuse(harness.ErrElsewhere, "claude conversation %s belongs to %s, not %s", id, f.Cwd, dir)
}

// Holders implements Holder: the interactive sessions whose
// <home>/sessions/<pid>.json names id.
func (claude) Holders(home, id string) []int {
	dir := filepath.Join(home, "sessions")
	entries, _ := os.ReadDir(dir)
	var pids []int
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		pid, err := strconv.Atoi(name)
		if !ok || err != nil || pid <= 0 || !e.Type().IsRegular() {
			continue
		}
		var s struct {
			PID       int    `json:"pid"`
			SessionID string `json:"sessionId"`
			ProcStart string `json:"procStart"`
		}
		if harness.ReadSmallJSON(filepath.Join(dir, e.Name()), &s) && s.SessionID == id && s.PID == pid &&
			(s.ProcStart == "" || startedAt(pid, s.ProcStart)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// startedAt reports whether process pid could be the one a session file
// describes: Claude records the process's start time as /proc shows it, so
// a file left by a crash whose pid now names another process is told apart.
// Without /proc there is nothing to compare and the answer is yes.
func startedAt(pid int, procStart string) bool {
	p, ok := safe.ReadProc(pid)
	return !ok || p.Start == procStart
}

// Active implements Activer: the timestamp of the transcript's last user
// or assistant line.
func (claude) Active(home, cwd, id string) time.Time {
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return time.Time{}
	}
	var at time.Time
	harness.FindLastLine(p, func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)) {
			return false
		}
		var l struct {
			Type      string `json:"type"`
			Timestamp string `json:"timestamp"`
		}
		if json.Unmarshal(line, &l) != nil || l.Type != "user" && l.Type != "assistant" {
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, l.Timestamp)
		at = t
		return err == nil
	})
	return at
}

// Branch implements Brancher: Claude Code writes the checkout's branch on
// each message line (gitBranch; "HEAD" when detached or outside a
// repository, measured on 2.1.197); the last one recorded.
func (claude) Branch(home, cwd, id string) string {
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return ""
	}
	var branch string
	harness.FindLastLine(p, func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"gitBranch"`)) {
			return false
		}
		var l struct {
			GitBranch string `json:"gitBranch"`
		}
		if json.Unmarshal(line, &l) != nil || l.GitBranch == "" {
			return false
		}
		branch = l.GitBranch
		return true
	})
	return branch
}

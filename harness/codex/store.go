package codex

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Codex keeps one rollout per thread under sessions/YYYY/MM/DD/, dated in
// local time: rollout-<YYYY-MM-DDThh-mm-ss>-<id>.jsonl. The first line is a
// session_meta record naming the thread's working directory and whether it
// is a subagent's thread. Thread IDs are UUID v7, so an ID alone says which
// few day directories can hold its rollout.

// sessionMeta is the part of a rollout's session_meta line fleetcom reads.
type sessionMeta struct {
	Type    string `json:"type"`
	Payload struct {
		ID           string          `json:"id"`
		Cwd          string          `json:"cwd"`
		Timestamp    string          `json:"timestamp"`
		ThreadSource string          `json:"thread_source"`
		Source       json.RawMessage `json:"source"`
		// Git is the checkout the thread started in, when a repository:
		// {"commit_hash","branch"} (measured on 0.171.0).
		Git struct {
			Branch string `json:"branch"`
		} `json:"git"`
	} `json:"payload"`
}

// subagent reports a thread started by another agent rather than the user.
func (m sessionMeta) subagent() bool {
	if m.Payload.ThreadSource == "subagent" {
		return true
	}
	// Older builds put the origin in "source", as an object keyed by kind.
	return bytes.Contains(m.Payload.Source, []byte(`"subagent"`))
}

// rolloutID returns the ID in a rollout file name.
func rolloutID(name string) (string, bool) {
	rest, ok := strings.CutSuffix(name, ".jsonl")
	if !ok || !strings.HasPrefix(rest, "rollout-") || len(rest) < len("rollout-")+safe.UUIDLen+1 {
		return "", false
	}
	id := rest[len(rest)-safe.UUIDLen:]
	if rest[len(rest)-safe.UUIDLen-1] != '-' || !spec.ID.Valid(id) {
		return "", false
	}
	return id, true
}

// readMeta reads and checks the first line of a rollout. A rollout whose
// first line is still being written has no complete line and is skipped.
func readMeta(path, id string) (sessionMeta, bool) {
	line, ok := harness.FirstLine(path)
	if !ok {
		return sessionMeta{}, false
	}
	return parseMeta(line, id)
}

// parseMeta checks a rollout's first line: a session_meta record of id.
func parseMeta(line []byte, id string) (sessionMeta, bool) {
	var m sessionMeta
	if json.Unmarshal(line, &m) != nil || m.Type != "session_meta" {
		return sessionMeta{}, false
	}
	if m.Payload.ID != "" && m.Payload.ID != id {
		return sessionMeta{}, false
	}
	return m, true
}

// dayDir is the sessions sub-directory for one calendar day.
func dayDir(home string, day time.Time) string {
	return filepath.Join(home, "sessions", day.Format("2006"), day.Format("01"), day.Format("02"))
}

// findRollout finds the rollout of id and reads its session_meta.
func findRollout(home, id string) (string, sessionMeta, bool) {
	if !spec.ID.Valid(id) {
		return "", sessionMeta{}, false
	}
	suffix := "-" + id + ".jsonl"
	check := func(path string) (string, sessionMeta, bool) {
		m, ok := readMeta(path, id)
		return path, m, ok
	}
	if ms, ok := safe.UUIDTime(id); ok {
		// The directory is the local date of creation; one day either side of
		// the UTC date covers every time zone.
		day := time.UnixMilli(ms).UTC()
		for off := -1; off <= 1; off++ {
			dir := dayDir(home, day.AddDate(0, 0, off))
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), suffix) && e.Type().IsRegular() {
					if p, m, ok := check(filepath.Join(dir, e.Name())); ok {
						return p, m, true
					}
				}
			}
		}
		return "", sessionMeta{}, false
	}
	// Not a v7 ID: only a full walk can find it.
	var path string
	var meta sessionMeta
	found := false
	filepath.WalkDir(filepath.Join(home, "sessions"), func(p string, d fs.DirEntry, err error) error {
		if found {
			return filepath.SkipAll
		}
		if err != nil {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), suffix) {
			path, meta, found = check(p)
		}
		return nil
	})
	return path, meta, found
}

// Exists implements Behaviour: a rollout for the ID whose session_meta
// names cwd (any directory when cwd is "").
func (codex) Exists(home, cwd string, id string) bool {
	_, meta, ok := findRollout(home, id)
	return ok && (cwd == "" || safe.SameDir(meta.Payload.Cwd, cwd))
}

// scanStats counts the work a correlation did, for benchmarks.
type scanStats struct {
	Dirs, Entries, Opened int
}

// Correlate implements Correlator: the single rollout in the day directories
// around spawn (its UTC date ±2 days, as directories are local dates) whose
// v7 timestamp falls in the 30 s after spawn, whose session_meta names cwd,
// and which is not a subagent's.
func (codex) Correlate(home, cwd string, spawn time.Time) string {
	id, _ := correlate(home, cwd, spawn)
	return id
}

// correlationWindow is how long after the spawn a rollout's v7 ID may be
// stamped: Codex stamps its IDs when the session starts.
const correlationWindow = 30 * time.Second

func correlate(home, cwd string, spawn time.Time) (string, scanStats) {
	var st scanStats
	found := ""
	day := spawn.UTC()
	from, to := spawn.Add(-harness.SpawnSlack).UnixMilli(), spawn.Add(correlationWindow).UnixMilli()
	for off := -2; off <= 2; off++ {
		dir := dayDir(home, day.AddDate(0, 0, off))
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		st.Dirs++
		for _, e := range entries {
			st.Entries++
			id, ok := rolloutID(e.Name())
			if !ok || !e.Type().IsRegular() {
				continue
			}
			ms, ok := safe.UUIDTime(id)
			if !ok || ms < from || ms > to {
				continue
			}
			st.Opened++
			m, ok := readMeta(filepath.Join(dir, e.Name()), id)
			if !ok || m.subagent() || !safe.SameDir(m.Payload.Cwd, cwd) {
				continue
			}
			if found != "" && found != id {
				return "", st // more than one: no guess
			}
			found = id
		}
	}
	return found, st
}

// rolloutLine is the part of a rollout line the title reader needs.
type rolloutLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"payload"`
}

// Title implements Titler: the first user message event, else the first
// user message item that is not injected context (those start with '<').
func (codex) Title(home, _ string, id string) string {
	path, _, ok := findRollout(home, id)
	if !ok {
		return ""
	}
	return readTitle(path)
}

// titleLimit bounds readTitle: a rollout whose first user_message is not in
// its first bytes (one with none reads to its end otherwise) is titled by
// the index, which reads it once.
const titleLimit = 16 << 20

// readTitle reads the title of the rollout at path, in its first
// titleLimit bytes. A tool's output, a line of megabytes, is passed over at
// its head (codexHead), and only a line whose head says it is the user's
// message is decoded: a rollout without a user_message event costs the
// bytes read, not decoding them. Its last answer is kept (LastRead).
func readTitle(path string) string { return titles.Of(path, scanTitle) }

// titles is readTitle's last answer.
var titles harness.LastRead[string]

func scanTitle(path string) string {
	fallback, title := "", ""
	harness.ScanHeads(path, harness.MaxLine, titleLimit, codexHead, func(line []byte) bool {
		if !userLine(line, fallback == "") {
			return true
		}
		var l rolloutLine
		if json.Unmarshal(line, &l) != nil {
			return true
		}
		switch {
		case l.Type == "event_msg" && l.Payload.Type == "user_message" && strings.TrimSpace(l.Payload.Message) != "":
			title = harness.CleanTitle(l.Payload.Message)
			return false
		case fallback == "" && l.Type == "response_item" && l.Payload.Role == "user":
			if t := harness.PromptText(l.Payload.Content); t != "" && !strings.HasPrefix(t, "<") {
				fallback = harness.CleanTitle(t)
			}
		}
		return true
	})
	if title == "" {
		title = fallback
	}
	return title
}

// userLine reports a line readTitle decodes: a short one that names a user
// at all, else one whose head says it is a user_message event or (item) a
// user's message item.
func userLine(line []byte, item bool) bool {
	if len(line) <= 8<<10 {
		return bytes.Contains(line, []byte(`"user`))
	}
	head := line[:512]
	if kind, _ := typeAfter(head, `"type":"event_msg","payload":{"type":"`); kind == "user_message" {
		return true
	}
	return item && bytes.Contains(head, []byte(`"type":"response_item"`)) && bytes.Contains(head, []byte(`"role":"user"`))
}

// Excerpt implements Excerpter: the user's and the agent's messages as the
// rollout's events record them.
func (codex) Excerpt(home, _ string, id string, n, m int) harness.Excerpt {
	x := harness.NewExcerptBuilder(n, m)
	path, _, ok := findRollout(home, id)
	if !ok {
		return x.Excerpt()
	}
	// A command's output reaches it as a head (codexHead), which does not
	// decode and is passed over.
	harness.ReadOnHeads(path, 0, harness.MaxLine, codexHead, func(line []byte) {
		if !bytes.Contains(line, []byte(`"event_msg"`)) {
			return
		}
		var l rolloutLine
		if json.Unmarshal(line, &l) != nil || l.Type != "event_msg" {
			return
		}
		switch l.Payload.Type {
		case "user_message":
			x.Add("user", l.Payload.Message)
		case "agent_message":
			x.Add("assistant", l.Payload.Message)
		}
	})
	return x.Excerpt()
}

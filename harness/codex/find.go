package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Codex names a thread's directory only inside its rollout, on the
// session_meta first line, so finding a directory's threads reads first
// lines: through the index (index.go) when the caller gives it a place,
// else all of them.

// Discover implements Finder: the rollouts whose session_meta names cwd and
// that are not a subagent's. A title-generation side thread has no rollout,
// so it is never found. When the index cannot be used, every rollout is read.
func (codex) Discover(home, cwd, index string) ([]harness.Found, error) {
	var indexErr error
	if index != "" {
		found, complete, err := indexed(home, cwd, index)
		if complete {
			return found, err
		}
		indexErr = err
	}
	return scan(home, cwd), indexErr
}

// scan is Discover without an index: every rollout's first line.
func scan(home, cwd string) []harness.Found {
	root := filepath.Join(home, "sessions")
	var rels []string
	for _, y := range subdirs(root, 4) {
		for _, m := range subdirs(filepath.Join(root, y), 2) {
			for _, d := range subdirs(filepath.Join(root, y, m), 2) {
				entries, _ := os.ReadDir(filepath.Join(root, y, m, d))
				for _, e := range entries {
					if e.Type().IsRegular() {
						rels = append(rels, y+"/"+m+"/"+d+"/"+e.Name())
					}
				}
			}
		}
	}
	var out []harness.Found
	for rel, p := range probeRollouts(home, rels) {
		id, _ := relID(rel)
		if p.state != userThread || !safe.SameDir(p.cwd, cwd) {
			continue
		}
		if f, ok := describe(home, cwd, id, filepath.Join(root, filepath.FromSlash(rel))); ok {
			out = append(out, f)
		}
	}
	harness.SortNewest(out)
	return out
}

// describe describes the rollout at p.
func describe(home, cwd, id, p string) (harness.Found, bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return harness.Found{}, false
	}
	f := harness.Found{Tool: "codex", ID: id, Cwd: cwd, Home: home, Title: readTitle(p), Modified: fi.ModTime()}
	if ms, ok := safe.UUIDTime(id); ok {
		f.Started = time.UnixMilli(ms)
	}
	return f, true
}

// Lookup implements Finder: the rollout of id, in the directory its
// session_meta names.
func (codex) Lookup(home, id string) (harness.Found, error) {
	p, meta, err := userRollout(home, id)
	if err != nil {
		return harness.Found{}, err
	}
	if !filepath.IsAbs(meta.Payload.Cwd) {
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "codex rollout %s names no directory", p)
	}
	f, ok := describe(home, safe.PhysicalOf(meta.Payload.Cwd), id, p)
	if !ok {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "codex rollout %s is gone", p)
	}
	if f.Title == "" {
		// Opened and quit before a prompt: with hooks, Codex keeps such a
		// rollout, and it holds nothing to resume.
		return harness.Found{}, harness.Refuse(harness.ErrEmptyConversation, "codex rollout %s holds no prompt", p)
	}
	return f, nil
}

// Adoptable implements Finder: a user's rollout whose session_meta names dir.
func (codex) Adoptable(home, dir, id string) error {
	p, meta, err := userRollout(home, id)
	if err != nil {
		return err
	}
	if !safe.SameDir(meta.Payload.Cwd, dir) {
		return harness.Refuse(harness.ErrElsewhere, "codex rollout %s was started in %q, not in %s", p, meta.Payload.Cwd, dir)
	}
	return nil
}

// userRollout finds the rollout of a thread a user can resume.
func userRollout(home, id string) (string, sessionMeta, error) {
	if err := spec.ValidateID(id); err != nil {
		return "", sessionMeta{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	p, meta, ok := findRollout(home, id)
	if !ok {
		return "", sessionMeta{}, harness.Refuse(harness.ErrNoConversation, "no codex rollout of %s in %s", id, filepath.Join(home, "sessions"))
	}
	if meta.subagent() {
		return "", sessionMeta{}, harness.Refuse(harness.ErrNotUsers, "codex thread %s was started by a subagent", id)
	}
	return p, meta, nil
}

// readMetaFast is readMeta for scanning many rollouts. A real
// session_meta line is some 20 KB, nearly all of it the model's base
// instructions after the fields fleetcom reads; decoding it in full costs
// about 0.15 ms, which 50,000 rollouts turn into seconds. The line must still
// be complete (a rollout whose first line is being written is skipped), but
// decoding stops once the fields are in hand.
func readMetaFast(line []byte, id string) (sessionMeta, bool) {
	var m sessionMeta
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return sessionMeta{}, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return sessionMeta{}, false
		}
		switch metaKey(key, "type", "payload") {
		case "type":
			err = dec.Decode(&m.Type)
		case "payload":
			var early bool
			if early, err = payloadFast(dec, &m); err == nil && early && m.Type == "" {
				return parseMeta(line, id) // "type" may follow: the long way
			}
			if early {
				return checkMeta(m, id)
			}
		default:
			err = dec.Decode(new(json.RawMessage))
		}
		if err != nil {
			return sessionMeta{}, false
		}
	}
	return checkMeta(m, id)
}

// payloadFast decodes the payload object until the fields fleetcom reads are
// all seen (early) or the object ends.
func payloadFast(dec *json.Decoder, m *sessionMeta) (early bool, err error) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false, errors.New("payload is not an object")
	}
	const all = 1<<5 - 1
	seen := 0
	p := &m.Payload
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false, err
		}
		bit := 0
		switch metaKey(key, "id", "cwd", "timestamp", "thread_source", "source") {
		case "id":
			err, bit = dec.Decode(&p.ID), 1
		case "cwd":
			err, bit = dec.Decode(&p.Cwd), 2
		case "timestamp":
			err, bit = dec.Decode(&p.Timestamp), 4
		case "thread_source":
			err, bit = dec.Decode(&p.ThreadSource), 8
		case "source":
			err, bit = dec.Decode(&p.Source), 16
		default:
			err = dec.Decode(new(json.RawMessage))
		}
		if err != nil {
			return false, err
		}
		if seen |= bit; seen == all {
			return true, nil
		}
	}
	_, err = dec.Token() // the closing brace
	return false, err
}

// metaKey returns the name among names that key matches the way
// encoding/json matches object keys to fields (case-insensitively), or "".
func metaKey(key json.Token, names ...string) string {
	k, _ := key.(string)
	for _, n := range names {
		if strings.EqualFold(k, n) {
			return n
		}
	}
	return ""
}

// checkMeta applies parseMeta's rules to decoded fields.
func checkMeta(m sessionMeta, id string) (sessionMeta, bool) {
	if m.Type != "session_meta" || m.Payload.ID != "" && m.Payload.ID != id {
		return sessionMeta{}, false
	}
	return m, true
}

// rolloutProbe is what a rollout's first line says.
type rolloutProbe struct {
	state byte   // userThread, or pendingKey / otherKey
	cwd   string // for a user's thread
}

const userThread = 'u'

// probeRollouts reads the first lines of the rollouts at rels, in parallel:
// a cold index reads tens of thousands.
func probeRollouts(home string, rels []string) map[string]rolloutProbe {
	out := make(map[string]rolloutProbe, len(rels))
	if len(rels) == 0 {
		return out
	}
	results := make([]rolloutProbe, len(rels))
	workers := min(runtime.GOMAXPROCS(0)*2, 8, 1+len(rels)/64)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 32<<10)
			for i := w; i < len(rels); i += workers {
				results[i], buf = probeRollout(home, rels[i], buf)
			}
		}()
	}
	wg.Wait()
	for i, rel := range rels {
		out[rel] = results[i]
	}
	return out
}

// probeRollout reads one rollout's first line into buf (grown as needed and
// returned for reuse).
func probeRollout(home, rel string, buf []byte) (rolloutProbe, []byte) {
	other := rolloutProbe{state: otherKey[0]}
	id, ok := relID(rel)
	if !ok {
		return other, buf
	}
	f, err := safe.Open(filepath.Join(home, "sessions", filepath.FromSlash(rel)), 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return other, buf
		}
		return rolloutProbe{state: pendingKey[0]}, buf
	}
	defer f.Close()
	n := 0
	for {
		if n == len(buf) {
			if len(buf) >= harness.MaxLine {
				return other, buf
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
		k, err := f.Read(buf[n:])
		if i := bytes.IndexByte(buf[n:n+k], '\n'); i >= 0 {
			m, ok := readMetaFast(buf[:n+i], id)
			if !ok || m.subagent() || !filepath.IsAbs(m.Payload.Cwd) {
				return other, buf
			}
			return rolloutProbe{state: userThread, cwd: m.Payload.Cwd}, buf
		}
		n += k
		if err != nil {
			return rolloutProbe{state: pendingKey[0]}, buf // no complete first line yet
		}
	}
}

func subdirs(dir string, width int) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.IsDir() && digits(e.Name(), width) {
			out = append(out, e.Name())
		}
	}
	return out
}

func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Active implements Activer: the timestamp of the rollout's last line
// (every line of a rollout is dated).
func (codex) Active(home, cwd, id string) time.Time {
	p, meta, ok := findRollout(home, id)
	if !ok || cwd != "" && !safe.SameDir(meta.Payload.Cwd, cwd) {
		return time.Time{}
	}
	var at time.Time
	harness.FindLastLine(p, func(line []byte) bool {
		var l struct {
			Timestamp string `json:"timestamp"`
		}
		if json.Unmarshal(line, &l) != nil {
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, l.Timestamp)
		at = t
		return err == nil
	})
	return at
}

// Branch implements Brancher: the branch of the checkout the thread
// started in, which the rollout's session_meta records.
func (codex) Branch(home, cwd, id string) string {
	_, meta, ok := findRollout(home, id)
	if !ok || cwd != "" && !safe.SameDir(meta.Payload.Cwd, cwd) {
		return ""
	}
	return meta.Payload.Git.Branch
}

package opencode

import (
	"encoding/json"
	"github.com/fleetcom/fleetcom/harness"
	"path/filepath"
	"strings"
	"time"
)

// The index reads opencode's database from the last change it saw. A
// session's rows change while a turn runs: the user's message is written
// before its text, a reply's row when its step starts, its text as it
// streams, and the session's own time_updated mostly at the turn's end.
// The title is opencode's own for the session (it asks the model for one
// with the first prompt), else the first prompt, as opencode's Titler
// decides: the index keeps the first title it is given, the one a read
// gives when it has one; opencode's title is the Summary too, which a
// later rename replaces.
//
// The reader counts a message once, when it first sees its row (so a
// session has Messages as soon as Exists says it is there), and takes its
// text (and, for a prompt, a turn and maybe the title) once, when the
// message is complete: a reply once opencode marked it completed (or
// failed), a prompt once something follows it, either once nothing
// touched it for opencodeStale.
//
// Both need a watermark, and the index keeps one number, so the mark holds
// two: H, the newest time seen (every message created up to it is
// counted, every change of a session up to it seen), and L <= H, below
// which every message is complete and read (the creation time of the
// oldest message still being written, less one, while there is one). A
// read looks at the sessions whose time_updated moved after L, or moved
// in the opencodeTurn before it and that got a message since (EXISTS on
// the message index: no count of every message), counts their messages
// created after H, and reads the complete ones created after L up to the
// new L. L lags H by at most opencodeMaxGap: a message still being
// written after that long is read as it is then.

// Bounds of the reader.
const (
	// opencodeStale is how long a message nothing writes to may stay
	// incomplete before it is read as it is: opencode stopped mid-turn.
	opencodeStale = 10 * time.Minute
	// opencodeTurn bounds how long the reader follows a turn as it runs.
	// opencode moves a session's time_updated when a prompt is sent (after
	// writing it) and when the turn ends, not as the turn's later steps
	// write their messages: a session is looked at for new messages while
	// its time_updated is at most this much older than L, not every
	// session every time (an EXISTS costs about 4 µs a session: 20 ms a
	// read for 5,000).
	opencodeTurn = 7 * 24 * time.Hour
	// opencodeGapBits is what the mark keeps of H - L.
	opencodeGapBits = 21
	opencodeMaxGap  = 1<<opencodeGapBits - 1 // ms: about 35 minutes
	// opencodeMaxTime bounds the times the mark can hold (in 2109).
	opencodeMaxTime = 1<<(63-opencodeGapBits) - 1
)

// opencodeNow is the clock a read judges staleness by.
var opencodeNow = time.Now

// opencodeMarks reads the two watermarks of a mark.
func opencodeMarks(mark int64) (h, l int64) {
	if mark <= 0 {
		return 0, 0
	}
	h = mark >> opencodeGapBits
	return h, h - mark&opencodeMaxGap
}

// opencodeMark makes a mark of the two watermarks, l no lower than
// opencodeMaxGap under h.
func opencodeMark(h, l int64) int64 {
	return h<<opencodeGapBits | (h - max(l, h-opencodeMaxGap))
}

// Database implements harness.DBIndexer.
func (opencode) Database(home string) string { return dbPath(home) }

// opencodeDirOK reports a session's directory fleetcom takes: absolute and
// clean, as sessions does.
func opencodeDirOK(dir string) bool { return filepath.IsAbs(dir) && filepath.Clean(dir) == dir }

// ListDB implements harness.DBIndexer: every session the reader would read.
func (opencode) ListDB(q harness.Querier) ([]string, error) {
	var ids []string
	err := q.Query(`SELECT id, directory FROM session`, nil, func(row []any) error {
		id, _ := row[0].(string)
		dir, _ := row[1].(string)
		if spec.ID.Valid(id) && opencodeDirOK(dir) {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}

// opencodeChangedSQL lists the sessions changed after a time (the first
// and third ?): updated since, or, of those updated since a while before
// (the second), given a message since.
const opencodeChangedSQL = `SELECT s.id, s.directory, s.title, COALESCE(s.parent_id, ''), s.time_created, s.time_updated FROM session s
 WHERE s.time_updated > ? OR s.time_updated > ? AND EXISTS (SELECT 1 FROM message m WHERE m.session_id = s.id AND m.time_created > ?)`

// opencodeNewSQL lists a session's messages created after a time.
const opencodeNewSQL = `SELECT m.id, m.time_created, m.time_updated, m.data FROM message m
 WHERE m.session_id = ? AND m.time_created > ? ORDER BY m.time_created, m.id`

// opencodeActivitySQL is the newest write to a message's parts.
const opencodeActivitySQL = `SELECT MAX(p.time_updated) FROM part p WHERE p.message_id = ?`

// opencodeReadSQL lists the text parts of a session's messages created in
// a span of time, with their message.
const opencodeReadSQL = `SELECT m.id, m.data, p.data FROM message m JOIN part p ON p.message_id = m.id
 WHERE m.session_id = ? AND m.time_created > ? AND m.time_created <= ? AND instr(p.data, '"type":"text"') > 0
 ORDER BY m.time_created, m.id, p.id`

// opencodeChanged is a session the read looks at.
type opencodeChanged struct {
	id, dir, title, parent string
	created, updated       int64
	// what its messages say
	count  int   // created after H
	active int64 // the newest of those
}

// opencodeFinished reports a reply opencode finished: completed, or
// failed. "completed" is a key of its time alone; a reply without it is
// decoded to look for an error (only one being written, or cut short).
func opencodeFinished(data string) bool {
	if strings.Contains(data, `"completed":`) {
		return true
	}
	var m struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal([]byte(data), &m) == nil && len(m.Error) > 0 && string(m.Error) != "null"
}

// ReadDB implements harness.DBIndexer.
func (opencode) ReadDB(q harness.Querier, mark int64, l harness.Limits, emit func(harness.Learned) error) (int64, error) {
	h0, l0 := opencodeMarks(mark)
	var changed []*opencodeChanged
	err := q.Query(opencodeChangedSQL, []any{l0, l0 - opencodeTurn.Milliseconds(), l0}, func(row []any) error {
		s := &opencodeChanged{}
		s.id, _ = row[0].(string)
		s.dir, _ = row[1].(string)
		s.title, _ = row[2].(string)
		s.parent, _ = row[3].(string)
		s.created, _ = row[4].(int64)
		s.updated, _ = row[5].(int64)
		if spec.ID.Valid(s.id) && opencodeDirOK(s.dir) {
			changed = append(changed, s)
		}
		return nil
	})
	if err != nil {
		return mark, err
	}
	// What is new: counted now; and the new L, under the oldest message
	// still being written.
	h1, hold := h0, int64(opencodeMaxTime)
	now := opencodeNow().UnixMilli()
	for _, s := range changed {
		if err := s.scan(q, h0, l0, now, &h1, &hold); err != nil {
			return mark, err
		}
		if s.updated <= opencodeMaxTime {
			h1 = max(h1, s.updated)
		}
	}
	l1 := min(h1, hold)
	l1 = max(l1, h1-opencodeMaxGap, l0)
	for _, s := range changed {
		x := harness.Learned{ID: s.id, Cwd: s.dir, Side: s.parent != "", Started: millis(s.created),
			Messages: s.count, Active: millis(s.active)}
		if t := strings.TrimSpace(s.title); t != "" && !defaultTitle(t) {
			// opencode's own title, which its Titler prefers: the title
			// too when the index has none yet.
			x.Summary = harness.CleanTitle(t)
			x.Title = x.Summary
		}
		if l1 > l0 {
			if err := s.read(q, l0, l1, l, &x); err != nil {
				return mark, err
			}
		}
		if err := emit(x); err != nil {
			return mark, err
		}
	}
	return opencodeMark(h1, l1), nil
}

// scan looks at a session's messages created after l0: it counts those
// created after h0, moves h1 to the newest, and hold under the oldest
// still being written.
func (s *opencodeChanged) scan(q harness.Querier, h0, l0, now int64, h1, hold *int64) error {
	type msg struct {
		id               string
		created, updated int64
		role             string
		done             bool // a reply opencode finished
	}
	var msgs []msg
	err := q.Query(opencodeNewSQL, []any{s.id, l0}, func(row []any) error {
		var m msg
		m.id, _ = row[0].(string)
		m.created, _ = row[1].(int64)
		m.updated, _ = row[2].(int64)
		data, _ := row[3].(string)
		if m.created <= 0 || m.created > opencodeMaxTime {
			return nil
		}
		m.role, _ = harness.StringField([]byte(data), "role")
		m.done = m.role == "assistant" && opencodeFinished(data)
		msgs = append(msgs, m)
		return nil
	})
	if err != nil {
		return err
	}
	for i, m := range msgs {
		if m.created > h0 {
			s.count++
			s.active = max(s.active, m.created)
		}
		*h1 = max(*h1, m.created)
		var done bool
		switch m.role {
		case "assistant":
			done = m.done
		case "user":
			done = i < len(msgs)-1
		default:
			done = true
		}
		if done {
			continue
		}
		last := m.updated
		if err := q.Query(opencodeActivitySQL, []any{m.id}, func(row []any) error {
			if t, ok := row[0].(int64); ok {
				last = max(last, t)
			}
			return nil
		}); err != nil {
			return err
		}
		if now-last < opencodeStale.Milliseconds() {
			*hold = min(*hold, m.created-1)
		}
	}
	return nil
}

// textPart is the text of a part that is text, neither synthetic nor
// ignored; ok is false for any other part, or one that does not decode.
// The part is walked, not decoded: a build reads millions of them.
func textPart(data []byte) (text string, ok bool) {
	var typ string
	var synthetic, ignored bool
	good := true
	flag := func(b *bool, v []byte) {
		switch string(v) {
		case "true", "false":
			*b = string(v) == "true"
		case "null":
		default:
			good = false
		}
	}
	walked := harness.Members(data, func(k, v []byte) bool {
		switch string(k) {
		// A null leaves what came before, as encoding/json does.
		case "type":
			if string(v) != "null" {
				typ, good = harness.NullableString(v)
			}
		case "text":
			if string(v) != "null" {
				text, good = harness.NullableString(v)
			}
		case "synthetic":
			flag(&synthetic, v)
		case "ignored":
			flag(&ignored, v)
		}
		return good
	})
	if !walked || !good || synthetic || ignored || typ != "text" {
		return "", false
	}
	return text, true
}

// read reads the text of a session's messages created in (from, to]:
// prompts the user typed (a turn each, the first the title) and the text
// of the replies, neither synthetic nor ignored.
func (s *opencodeChanged) read(q harness.Querier, from, to int64, l harness.Limits, x *harness.Learned) error {
	prompted := ""
	return q.Query(opencodeReadSQL, []any{s.id, from, to}, func(row []any) error {
		id, _ := row[0].(string)
		mdata, _ := row[1].(string)
		pdata, _ := row[2].(string)
		role, _ := harness.StringField([]byte(mdata), "role")
		if role != "user" && role != "assistant" {
			return nil
		}
		text, ok := textPart([]byte(pdata))
		if text = strings.TrimSpace(text); !ok || text == "" {
			return nil
		}
		if role == "user" {
			// One turn a prompt, however many texts it holds. The index
			// keeps the first title it is given.
			if prompted != id {
				x.Turns++
				prompted = id
			}
			if x.Title == "" {
				x.Title = harness.CleanTitle(text)
			}
		}
		if l.Text {
			x.Texts = append(x.Texts, harness.ClipText(text, l.Message))
		}
		return nil
	})
}

package opencode

import (
	"cmp"
	"github.com/fleetcom/fleetcom/harness"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

// testdata/sessions.sql holds the rows opencode 1.18.33 wrote
// (offline, against a fake model; directories renamed to /home/me/…) for
// two sessions: one of a prompt and its answer, a prompt answered by a
// bash tool call, its output and a reply, and a prompt whose answer was
// held back a while (ses_db6534f63ffeQ8756QBzHnf8bj, three `opencode run
// -c`), and one of two TUI turns that `opencode import`
// moved to another directory (ses_db65fdbf6ffebvK6cdx7G1vxiH).
const (
	ocToolSession = "ses_db6534f63ffeQ8756QBzHnf8bj"
	ocTUISession  = "ses_db65fdbf6ffebvK6cdx7G1vxiH"
)

func (d ocDB) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if len(args) == 0 {
		if err := d.c.Exec(sql); err != nil {
			t.Fatalf("%v: %s", err, sql)
		}
		return
	}
	s, _, err := d.c.Prepare(sql)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			s.BindInt64(i+1, v)
		case string:
			s.BindText(i+1, v)
		case nil:
			s.BindNull(i + 1)
		}
	}
	if err := s.Exec(); err != nil {
		t.Fatalf("%v: %s", err, sql)
	}
}

// newOpencodeDB makes opencode's schema in home/opencode.db, open for
// writing, with the real rows when real.
func newOpencodeDB(t *testing.T, home string, real bool) ocDB {
	t.Helper()
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := sqlite3.Open(dbPath(home))
	if err != nil {
		t.Fatal(err)
	}
	d := newOcDB(c)
	t.Cleanup(d.close)
	d.exec(t, opencodetest.Schema)
	if real {
		data, err := os.ReadFile(filepath.Join("testdata", "sessions.sql"))
		if err != nil {
			t.Fatal(err)
		}
		d.exec(t, string(data))
	}
	return d
}

// ocTotals is what the index keeps of a database's reads, by session.
type ocTotals map[string]*harness.Learned

func (o ocTotals) add(d harness.Delta) {
	for _, l := range d {
		g := o[l.ID]
		if g == nil {
			g = &harness.Learned{ID: l.ID}
			o[l.ID] = g
		}
		if l.Cwd != "" {
			g.Cwd = l.Cwd
		}
		if g.Title == "" {
			g.Title = l.Title
		}
		if l.Summary != "" {
			g.Summary = l.Summary
		}
		g.Turns += l.Turns
		g.Messages += l.Messages
		if !l.Started.IsZero() && (g.Started.IsZero() || l.Started.Before(g.Started)) {
			g.Started = l.Started
		}
		if l.Active.After(g.Active) {
			g.Active = l.Active
		}
		g.Side = g.Side || l.Side
		g.Texts = append(g.Texts, l.Texts...)
	}
}

// readOpencode reads a database once, from nothing.
func readOpencode(t *testing.T, q harness.Querier, l harness.Limits) (ocTotals, int64) {
	t.Helper()
	d, mark, err := readDB(q, 0, l)
	if err != nil {
		t.Fatal(err)
	}
	o := ocTotals{}
	o.add(d)
	return o, mark
}

// atClock sets the clock staleness is judged by.
func atClock(t *testing.T, ms int64) {
	saved := opencodeNow
	t.Cleanup(func() { opencodeNow = saved })
	opencodeNow = func() time.Time { return time.UnixMilli(ms) }
}

var ocLimits = harness.Limits{Text: true, Message: 1 << 10, Line: 1 << 20}

func TestOpencodeReadDBRealSessions(t *testing.T) {
	home := t.TempDir()
	newOpencodeDB(t, home, true)
	atClock(t, 1796540000000)
	q, done, err := openOpencodeReadOnly(dbPath(home))
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	o, mark := readOpencode(t, q, ocLimits)
	s := o[ocToolSession]
	// The title is opencode's own, as its Titler says (the fake model's
	// answer to opencode's request for one).
	if s == nil || s.Cwd != "/home/me/proj a" || s.Side || s.Summary != "ACK HERON-12 CODES HERON-12" ||
		s.Title != s.Summary || s.Turns != 3 || s.Messages != 7 {
		t.Fatalf("tool session: %+v", s)
	}
	want := []string{`"remember HERON-12"`, "ACK HERON-12 CODES HERON-12", `"PERMIT run it"`, "ACK it CODES HERON-12",
		`"HOLD this please"`, "ACK please CODES HERON-12"}
	if !slices.Equal(s.Texts, want) {
		t.Errorf("texts %q, want %q: no tool call, no tool output", s.Texts, want)
	}
	if !s.Started.Equal(time.UnixMilli(1796532383900)) || !s.Active.Equal(time.UnixMilli(1796532502006)) {
		t.Errorf("started %v, active %v", s.Started, s.Active)
	}
	s = o[ocTUISession]
	if s == nil || s.Cwd != "/home/me/other project" || s.Title != "ACK PELICAN-4821 CODES PELICAN-4821" || s.Turns != 2 || s.Messages != 4 ||
		!slices.Equal(s.Texts, []string{"remember PELICAN-4821", "ACK PELICAN-4821 CODES PELICAN-4821", "which codes now", "ACK now CODES PELICAN-4821"}) {
		t.Errorf("TUI session: %+v", s)
	}
	// Nothing new: nothing learned, the same mark.
	d, mark2, err := readDB(q, mark, ocLimits)
	if err != nil || len(d) != 0 || mark2 != mark {
		t.Errorf("a read with nothing new: %+v, mark %d then %d, %v", d, mark, mark2, err)
	}
	ids, err := opencode{}.ListDB(q)
	if slices.Sort(ids); err != nil || !slices.Equal(ids, []string{ocToolSession, ocTUISession}) {
		t.Errorf("ListDB %q, %v", ids, err)
	}
	if opencode.Database(opencode{}, home) != dbPath(home) {
		t.Error("Database is not opencode.db")
	}
}

// The reader agrees with the store's own reading (opencodestore.go) on
// what is a conversation, its title and its last activity, and its texts
// are what the preview shows.
func TestOpencodeReadDBAgreesWithTheStore(t *testing.T) {
	home := t.TempDir()
	d := newOpencodeDB(t, home, true)
	// A session whose title is still opencode's default, a sub-agent's, and
	// one with no message.
	d.exec(t, `INSERT INTO session(id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
		SELECT 'ses_db6534f63ffeQ8756QBzHnf8bk', project_id, NULL, slug, directory, 'New session - 2026-12-06T04:40:00.000Z', version, time_created, time_updated FROM session WHERE id = ?`, ocToolSession)
	d.exec(t, `INSERT INTO message SELECT id || 'k', 'ses_db6534f63ffeQ8756QBzHnf8bk', time_created, time_updated, data FROM message WHERE session_id = ?`, ocToolSession)
	d.exec(t, `INSERT INTO part SELECT id || 'k', message_id || 'k', 'ses_db6534f63ffeQ8756QBzHnf8bk', time_created, time_updated, data FROM part WHERE session_id = ?`, ocToolSession)
	d.exec(t, `INSERT INTO session(id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
		VALUES ('ses_db6534f63ffeQ8756QBzHnf8bm', 'global', ?, 's', '/home/me/proj a', 'Child session - 2026-12-06T04:40:00.000Z', '1.18.33', 1796532400000, 1796532400000),
		('ses_db6534f63ffeQ8756QBzHnf8bn', 'global', NULL, 's', '/home/me/proj a', 'New session - 2026-12-06T04:40:00.000Z', '1.18.33', 1796532400000, 1796532400000)`, ocToolSession)
	d.exec(t, `INSERT INTO message VALUES ('msg_child', 'ses_db6534f63ffeQ8756QBzHnf8bm', 1796532400001, 1796532400001, '{"role":"user","time":{"created":1796532400001}}')`)
	atClock(t, 1796540000000)
	saved := harness.OpenDB
	t.Cleanup(func() { harness.OpenDB = saved; cache.db = "" })
	harness.OpenDB = openOpencodeReadOnly
	cache.db = ""
	list, err := sessions(home)
	if err != nil || len(list) != 5 {
		t.Fatalf("the store through harness.OpenDB: %d sessions, %v", len(list), err)
	}
	q, done, _ := openOpencodeReadOnly(dbPath(home))
	defer done()
	o, _ := readOpencode(t, q, ocLimits)
	for _, s := range list {
		g := o[s.ID]
		if g == nil {
			t.Errorf("%s: not read", s.ID)
			continue
		}
		title := titleOf(home, s)
		if (g.Messages > 0) != s.conversation() || g.Title != title || g.Side != (s.Parent != "") ||
			!g.Active.Equal(millis(s.Last)) || !g.Started.Equal(millis(s.Created)) || g.Cwd != s.Directory {
			t.Errorf("%s: read %+v; the store: %+v, title %q", s.ID, g, s, title)
		}
		texts, _ := texts(home, s.ID)
		var want []string
		for _, x := range texts {
			want = append(want, x.Text)
		}
		if !slices.Equal(g.Texts, want) {
			t.Errorf("%s: texts %q, the store's %q", s.ID, g.Texts, want)
		}
	}
}

// ocEvent is one write of opencode's, replayed.
type ocEvent struct {
	at   int64
	sql  string
	args []any
}

// opencodeWrites replays the real sessions as opencode wrote them, each row
// as it came and then as it ended: a message row before its parts, a
// reply without its completion until the end of its step, a text part
// empty until it is done, the session's title once its first prompt is
// written, its time moving last.
func opencodeWrites(t *testing.T) []ocEvent {
	src := newOpencodeDB(t, t.TempDir(), true)
	var ev []ocEvent
	src.Query(`SELECT s.id, s.project_id, s.slug, s.directory, s.title, s.version, s.time_created, s.time_updated,
		(SELECT min(p.time_created) FROM part p WHERE p.session_id = s.id) FROM session s`, nil, func(r []any) error {
		// The title comes back from its own request while the first
		// answer is asked for.
		titled := r[8].(int64) + 1
		ev = append(ev, ocEvent{r[6].(int64), `INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated)
			VALUES (?, ?, ?, ?, 'New session - 2026-12-06T04:40:00.000Z', ?, ?, ?)`, []any{r[0], r[1], r[2], r[3], r[5], r[6], r[6]}},
			ocEvent{titled, `UPDATE session SET title = ?, time_updated = ? WHERE id = ?`, []any{r[4], titled, r[0]}},
			ocEvent{r[7].(int64), `UPDATE session SET time_updated = ? WHERE id = ?`, []any{r[7], r[0]}})
		return nil
	})
	src.Query(`SELECT id, session_id, time_created, time_updated, data FROM message`, nil, func(r []any) error {
		data := r[4].(string)
		first := data
		if i := strings.Index(data, `,"completed":`); i > 0 {
			j := strings.IndexByte(data[i:], '}')
			first = data[:i] + data[i+j:]
		}
		ev = append(ev, ocEvent{r[2].(int64), `INSERT INTO message VALUES (?, ?, ?, ?, ?)`, []any{r[0], r[1], r[2], r[2], first}},
			ocEvent{r[3].(int64), `UPDATE message SET data = ?, time_updated = ? WHERE id = ?`, []any{data, r[3], r[0]}})
		return nil
	})
	src.Query(`SELECT id, message_id, session_id, time_created, time_updated, data FROM part`, nil, func(r []any) error {
		data := r[5].(string)
		first := data
		if strings.Contains(data, `"time":{"start"`) {
			first = `{"type":"text","text":""}`
		}
		ev = append(ev, ocEvent{r[3].(int64), `INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, []any{r[0], r[1], r[2], r[3], r[3], first}},
			ocEvent{r[4].(int64), `UPDATE part SET data = ?, time_updated = ? WHERE id = ?`, []any{data, r[4], r[0]}})
		return nil
	})
	slices.SortStableFunc(ev, func(a, b ocEvent) int { return cmp.Compare(a.at, b.at) })
	return ev
}

// Read after every write opencode made, the database gives what one read
// of the whole gives, each message counted once and as soon as its row is
// there, each text once and whole.
func TestOpencodeReadDBAfterEveryWrite(t *testing.T) {
	whole := func() ocTotals {
		home := t.TempDir()
		newOpencodeDB(t, home, true)
		q, done, _ := openOpencodeReadOnly(dbPath(home))
		defer done()
		atClock(t, 1796540000000)
		o, _ := readOpencode(t, q, ocLimits)
		return o
	}()
	home := t.TempDir()
	d := newOpencodeDB(t, home, false)
	q, done, _ := openOpencodeReadOnly(dbPath(home))
	defer done()
	o := ocTotals{}
	var mark int64
	for _, e := range opencodeWrites(t) {
		d.exec(t, e.sql, e.args...)
		atClock(t, e.at+1)
		delta, next, err := readDB(q, mark, ocLimits)
		if err != nil {
			t.Fatal(err)
		}
		o.add(delta)
		mark = next
		for id, g := range o {
			var rows int64
			d.Query(`SELECT count(*) FROM message WHERE session_id = ?`, []any{id}, func(r []any) error { rows = r[0].(int64); return nil })
			if int64(g.Messages) != rows {
				t.Fatalf("at %d: %s counts %d messages, the database has %d", e.at, id, g.Messages, rows)
			}
		}
	}
	for id, w := range whole {
		if g := o[id]; g == nil || !reflect.DeepEqual(*g, *w) {
			t.Errorf("%s, read after every write:\n%+v\nread once:\n%+v", id, g, w)
		}
	}
}

// A reply still being written holds back the text of every message made
// after it, in any session, until it is done or goes stale; the counts do
// not wait.
func TestOpencodeReadDBWaitsForTheTurn(t *testing.T) {
	home := t.TempDir()
	d := newOpencodeDB(t, home, false)
	q, done, _ := openOpencodeReadOnly(dbPath(home))
	defer done()
	for _, s := range []string{"ses_aaaaaaaaaaaaQ8756QBzHnf8bj", "ses_bbbbbbbbbbbbQ8756QBzHnf8bj"} {
		d.exec(t, `INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated)
			VALUES (?, 'g', 's', '/p', 'New session - 2026-12-06T04:40:00.000Z', 'v', 1000, 1000)`, s)
	}
	msg := func(id, ses string, at int64, data string) {
		d.exec(t, `INSERT INTO message VALUES (?, ?, ?, ?, ?)`, id, ses, at, at, data)
	}
	part := func(id, m, ses string, at int64, text string) {
		d.exec(t, `INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, id, m, ses, at, at, `{"type":"text","text":"`+text+`"}`)
	}
	a, b := "ses_aaaaaaaaaaaaQ8756QBzHnf8bj", "ses_bbbbbbbbbbbbQ8756QBzHnf8bj"
	msg("m1", a, 2000, `{"role":"user"}`)
	part("p1", "m1", a, 2001, "first in A")
	msg("m2", a, 2002, `{"role":"assistant","time":{"created":2002}}`) // being written
	msg("m3", b, 3000, `{"role":"user"}`)
	part("p3", "m3", b, 3001, "first in B")
	msg("m4", b, 3002, `{"role":"assistant","time":{"created":3002,"completed":3100}}`)
	part("p4", "m4", b, 3003, "answer in B")
	o := ocTotals{}
	atClock(t, 4000)
	delta, mark, _ := readDB(q, 0, ocLimits)
	o.add(delta)
	if o[a].Messages != 2 || o[b].Messages != 2 || o[a].Turns != 1 || o[b].Turns != 0 || len(o[b].Texts) != 0 ||
		!slices.Equal(o[a].Texts, []string{"first in A"}) {
		t.Errorf("while A's reply is written: A %+v, B %+v", o[a], o[b])
	}
	// A's reply is done; nothing else moved.
	d.exec(t, `UPDATE message SET data = '{"role":"assistant","time":{"created":2002,"completed":5000}}', time_updated = 5000 WHERE id = 'm2'`)
	part("p2", "m2", a, 4999, "answer in A")
	delta, mark, _ = readDB(q, mark, ocLimits)
	o.add(delta)
	if o[a].Messages != 2 || o[b].Messages != 2 || o[a].Turns != 1 || o[b].Turns != 1 || o[b].Title != "first in B" ||
		!slices.Equal(o[a].Texts, []string{"first in A", "answer in A"}) || !slices.Equal(o[b].Texts, []string{"first in B", "answer in B"}) {
		t.Errorf("after A's reply: A %+v, B %+v", o[a], o[b])
	}
	// A prompt left without an answer, then nothing for longer than
	// opencodeStale: read as it is.
	msg("m5", a, 6000, `{"role":"user"}`)
	part("p5", "m5", a, 6001, "no answer")
	delta, mark, _ = readDB(q, mark, ocLimits)
	o.add(delta)
	if o[a].Messages != 3 || o[a].Turns != 1 {
		t.Errorf("a prompt not answered yet: %+v", o[a])
	}
	atClock(t, 6001+opencodeStale.Milliseconds())
	delta, _, _ = readDB(q, mark, ocLimits)
	o.add(delta)
	if o[a].Messages != 3 || o[a].Turns != 2 || o[a].Texts[len(o[a].Texts)-1] != "no answer" {
		t.Errorf("a prompt left unanswered: %+v", o[a])
	}
}

func TestOpencodeReadDBWithoutText(t *testing.T) {
	home := t.TempDir()
	newOpencodeDB(t, home, true)
	q, done, _ := openOpencodeReadOnly(dbPath(home))
	defer done()
	atClock(t, 1796540000000)
	o, _ := readOpencode(t, q, harness.Limits{})
	if s := o[ocToolSession]; len(s.Texts) != 0 || s.Turns != 3 || s.Title != "ACK HERON-12 CODES HERON-12" {
		t.Errorf("text off: %+v", s)
	}
}

func TestOpencodeMark(t *testing.T) {
	for _, c := range []struct{ h, l, wantL int64 }{
		{0, 0, 0}, {1796532465405, 1796532465405, 1796532465405}, {1796532465405, 1796532000000, 1796532000000},
		{1796532465405, 1, 1796532465405 - opencodeMaxGap},
	} {
		h, l := opencodeMarks(opencodeMark(c.h, c.l))
		if h != c.h || l != c.wantL {
			t.Errorf("mark of %d, %d reads %d, %d", c.h, c.l, h, l)
		}
	}
}

// readDB is ReadDB with what it hands over gathered, as the index takes it.
func readDB(q harness.Querier, mark int64, l harness.Limits) (harness.Delta, int64, error) {
	var d harness.Delta
	next, err := opencode{}.ReadDB(q, mark, l, func(x harness.Learned) error {
		d = append(d, x)
		return nil
	})
	return d, next, err
}

package opencode

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

// An opencode database of 5,000 sessions over a year, 20 turns each (a
// tool call in every answer), with opencode's own indexes.
func writeOpencodeBenchDB(b *testing.B) (string, int64) {
	home := b.TempDir()
	c, err := sqlite3.Open(dbPath(home))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	exec := func(sql string, args ...any) {
		s, _, err := c.Prepare(sql)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		for i, a := range args {
			switch v := a.(type) {
			case int64:
				s.BindInt64(i+1, v)
			case string:
				s.BindText(i+1, v)
			}
		}
		if err := s.Exec(); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Exec(opencodetest.Schema + `CREATE INDEX part_message_id_id_idx ON part (message_id, id);
		CREATE INDEX part_session_idx ON part (session_id); BEGIN`); err != nil {
		b.Fatal(err)
	}
	base := int64(1796000000000)
	tool := `{"type":"tool","tool":"bash","state":{"output":"` + strings.Repeat("0", 800) + `"}}`
	for s := range 5000 {
		id := fmt.Sprintf("ses_%012xAAAAAAAAAAAAAA", s)
		at := base + int64(s)*6300000
		exec(`INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'g', 's', '/p', 'A title', 'v', ?, ?)`, id, at, at+50000)
		for m := range 40 {
			mid := fmt.Sprintf("msg_%d_%d", s, m)
			ts := at + int64(m)*1000
			if m%2 == 0 {
				exec(`INSERT INTO message VALUES (?, ?, ?, ?, '{"role":"user","time":{"created":1},"agent":"build","summary":{"diffs":[]}}')`, mid, id, ts, ts)
				exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, '{"type":"text","text":"a prompt about the thing"}')`, mid+"p", mid, id, ts, ts)
				continue
			}
			exec(`INSERT INTO message VALUES (?, ?, ?, ?, '{"parentID":"x","role":"assistant","mode":"build","path":{"cwd":"/p","root":"/"},"cost":0,"tokens":{"total":8070},"modelID":"m","time":{"created":1,"completed":2},"finish":"stop"}')`, mid, id, ts, ts)
			exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, '{"type":"step-start"}')`, mid+"a", mid, id, ts, ts)
			exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, mid+"b", mid, id, ts, ts, tool)
			exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, '{"type":"text","text":"an answer with some words in it","time":{"start":1,"end":2}}')`, mid+"c", mid, id, ts, ts)
		}
	}
	if err := c.Exec("COMMIT"); err != nil {
		b.Fatal(err)
	}
	return home, base + 5000*6300000
}

func BenchmarkOpencodeReadDBFirst(b *testing.B) {
	home, now := writeOpencodeBenchDB(b)
	saved := opencodeNow
	defer func() { opencodeNow = saved }()
	opencodeNow = func() time.Time { return time.UnixMilli(now) }
	q, done, _ := openOpencodeReadOnly(dbPath(home))
	defer done()
	fi, _ := os.Stat(dbPath(home))
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for range b.N {
		if d, _, err := readDB(q, 0, ocLimits); err != nil || len(d) != 5000 {
			b.Fatal(len(d), err)
		}
	}
}

// A read once opencode wrote something: every read while a turn runs.
func BenchmarkOpencodeReadDBAgain(b *testing.B) {
	home, now := writeOpencodeBenchDB(b)
	saved := opencodeNow
	defer func() { opencodeNow = saved }()
	opencodeNow = func() time.Time { return time.UnixMilli(now) }
	q, done, _ := openOpencodeReadOnly(dbPath(home))
	defer done()
	_, mark, _ := readDB(q, 0, ocLimits)
	b.ResetTimer()
	for range b.N {
		if _, _, err := readDB(q, mark, ocLimits); err != nil {
			b.Fatal(err)
		}
	}
}

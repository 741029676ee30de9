package harness

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

// A Gemini session of mb MiB in the shape a tool-heavy one has: each turn a
// prompt, a reply written again with a tool call holding 90 KB of output,
// the output handed back, and an answer.
func writeGeminiToolSession(b *testing.B, mb int) (string, int) {
	chats := filepath.Join(b.TempDir(), "tmp", "proj", "chats")
	os.MkdirAll(chats, 0o755)
	p := filepath.Join(chats, geminiSummaryFile)
	data, err := os.ReadFile(filepath.Join("testdata", "gemini", "index", geminiSummaryFile))
	if err != nil {
		b.Fatal(err)
	}
	head := strings.SplitAfter(string(data), "\n")
	f, _ := os.Create(p)
	w := bufio.NewWriter(f)
	w.WriteString(head[0] + head[1])
	out := strings.Repeat(`line of tool output with some words in it\n`, 2000)
	turns := 0
	for size := 0; size < mb<<20; turns++ {
		for _, l := range []string{
			fmt.Sprintf(`{"id":"u-%d","timestamp":"2026-12-06T05:00:00.000Z","type":"user","content":[{"text":"prompt %d about things"}]}`, turns, turns),
			`{"$set":{"lastUpdated":"2026-12-06T05:00:01.000Z"}}`,
			fmt.Sprintf(`{"id":"g-%d","timestamp":"2026-12-06T05:00:01.000Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":10},"model":"m"}`, turns),
			fmt.Sprintf(`{"id":"g-%d","timestamp":"2026-12-06T05:00:01.000Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":10},"model":"m","toolCalls":[{"id":"c%d","name":"read_file","args":{"p":"x"},"result":[{"functionResponse":{"id":"c%d","name":"read_file","response":{"output":"%s"}}}],"status":"success"}]}`, turns, turns, turns, out),
			fmt.Sprintf(`{"id":"r-%d","timestamp":"2026-12-06T05:00:01.000Z","type":"user","content":[{"functionResponse":{"id":"c%d","name":"read_file","response":{"output":"%s"}}}]}`, turns, turns, out),
			fmt.Sprintf(`{"id":"a-%d","timestamp":"2026-12-06T05:00:02.000Z","type":"gemini","content":"answer %d","thoughts":[],"model":"m"}`, turns, turns),
			`{"$set":{"lastUpdated":"2026-12-06T05:00:02.000Z"}}`,
		} {
			w.WriteString(l + "\n")
			size += len(l) + 1
		}
	}
	w.Flush()
	f.Close()
	return p, turns
}

// The first read of a 100 MiB session; BenchmarkGeminiReplay100MB is the
// replay of the whole that every command ran before the index.
func BenchmarkGeminiRead100MB(b *testing.B) {
	p, turns := writeGeminiToolSession(b, 100)
	lim := Limits{Text: true, Message: 8 << 10, Line: 8 << 20}
	fi, _ := os.Stat(p)
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for range b.N {
		d, _, err := gemini{}.Read(p, Cursor{}, lim)
		if err != nil || d[0].Turns != turns {
			b.Fatal(d, err)
		}
	}
}

func BenchmarkGeminiReplay100MB(b *testing.B) {
	p, _ := writeGeminiToolSession(b, 100)
	fi, _ := os.Stat(p)
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for range b.N {
		if c, ok := readGeminiChat(p, false); !ok || !c.resumable {
			b.Fatal("not read")
		}
	}
}

// A read of the same session after one more prompt.
func BenchmarkGeminiReadAppended(b *testing.B) {
	p, _ := writeGeminiToolSession(b, 100)
	lim := Limits{Text: true, Message: 8 << 10, Line: 8 << 20}
	_, c, _ := gemini{}.Read(p, Cursor{}, lim)
	f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":"u-new","timestamp":"2026-12-06T06:00:00.000Z","type":"user","content":[{"text":"one more"}]}` + "\n" +
		`{"$set":{"lastUpdated":"2026-12-06T06:00:00.000Z"}}` + "\n")
	f.Close()
	b.ResetTimer()
	for range b.N {
		if d, _, _ := (gemini{}).Read(p, c, lim); d[0].Turns != 1 {
			b.Fatal(d)
		}
	}
}

// An opencode database of 5,000 sessions over a year, 20 turns each (a
// tool call in every answer), with opencode's own indexes.
func writeOpencodeBenchDB(b *testing.B) (string, int64) {
	home := b.TempDir()
	c, err := sqlite3.Open(opencodeDB(home))
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
	q, done, _ := openOpencodeReadOnly(opencodeDB(home))
	defer done()
	fi, _ := os.Stat(opencodeDB(home))
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for range b.N {
		if d, _, err := (opencode{}).ReadDB(q, 0, ocLimits); err != nil || len(d) != 5000 {
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
	q, done, _ := openOpencodeReadOnly(opencodeDB(home))
	defer done()
	_, mark, _ := opencode{}.ReadDB(q, 0, ocLimits)
	b.ResetTimer()
	for range b.N {
		if _, _, err := (opencode{}).ReadDB(q, mark, ocLimits); err != nil {
			b.Fatal(err)
		}
	}
}

package gemini

import (
	"bufio"
	"fmt"
	"github.com/fleetcom/fleetcom/harness"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Gemini session of mb MiB in the shape a tool-heavy one has: each turn a
// prompt, a reply written again with a tool call holding 90 KB of output,
// the output handed back, and an answer.
func writeGeminiToolSession(b *testing.B, mb int) (string, int) {
	chats := filepath.Join(b.TempDir(), "tmp", "proj", "chats")
	os.MkdirAll(chats, 0o755)
	p := filepath.Join(chats, geminiSummaryFile)
	data, err := os.ReadFile(filepath.Join("testdata", "index", geminiSummaryFile))
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
	lim := harness.Limits{Text: true, Message: 8 << 10, Line: 8 << 20}
	fi, _ := os.Stat(p)
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for range b.N {
		d, _, err := gemini{}.Read(p, harness.Cursor{}, lim)
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
		if c, ok := readSession(p, false); !ok || !c.resumable {
			b.Fatal("not read")
		}
	}
}

// A read of the same session after one more prompt.
func BenchmarkGeminiReadAppended(b *testing.B) {
	p, _ := writeGeminiToolSession(b, 100)
	lim := harness.Limits{Text: true, Message: 8 << 10, Line: 8 << 20}
	_, c, _ := gemini{}.Read(p, harness.Cursor{}, lim)
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

package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// The index at history sizes, with the toy agent (its reader costs little,
// so these time the index itself): 10,000 conversations over 500
// directories, written two days and more ago, each with a prompt and a
// reply of some 2 KB.
//
//	go test -run '^$' -bench . -benchtime 200x ./index/

const (
	benchConvs = 10000
	benchDirs  = 500
)

// benchIndex builds the history and its index once per benchmark.
func benchIndex(b *testing.B) (x *Index, home string, now time.Time) {
	b.Helper()
	home = b.TempDir()
	now = time.Now()
	old := now.Add(-3 * warmFor)
	words := strings.Fields("session cache login race token retry schema index shim terminal")
	for i := 0; i < benchConvs; i++ {
		cwd := fmt.Sprintf("/src/p%03d", i%benchDirs)
		p := filepath.Join(home, "conv", toySlug(cwd), uuidN(i)+".log")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		var body strings.Builder
		fmt.Fprintf(&body, "C %s\nP please look at the %s of conversation%d\nR ", cwd, words[i%len(words)], i)
		for j := 0; body.Len() < 2048; j++ {
			body.WriteString(words[(i+j)%len(words)] + " ")
		}
		body.WriteString("\n")
		if err := os.WriteFile(p, []byte(body.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	for i := 0; i < benchDirs; i++ {
		d := filepath.Join(home, "conv", toySlug(fmt.Sprintf("/src/p%03d", i)))
		os.Chtimes(d, old, old)
	}
	x, err := Open(b.TempDir(), Options{Agents: []harness.Agent{toyAgent},
		Homes: func(harness.Agent) []string { return []string{home} }, Text: true, Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { x.Close() })
	if _, err := x.Refresh(Scope{Full: true}); err != nil {
		b.Fatal(err)
	}
	return x, home, now
}

// BenchmarkRefreshAfterOneTurn: the quick refresh every command runs
// first, after one new turn in one conversation of this directory.
func BenchmarkRefreshAfterOneTurn(b *testing.B) {
	x, home, _ := benchIndex(b)
	cwd := "/src/p007"
	p := filepath.Join(home, "conv", toySlug(cwd), uuidN(7)+".log")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "P turn %d\n", i)
		f.Close()
		b.StartTimer()
		r, err := x.Refresh(Scope{Dirs: []string{cwd}})
		if err != nil || r.Files != 1 {
			b.Fatalf("refresh: %+v, %v; want the one file read", r, err)
		}
	}
}

// BenchmarkDir: a directory's conversations, newest first (list, resume,
// completion).
func BenchmarkDir(b *testing.B) {
	x, _, _ := benchIndex(b)
	for b.Loop() {
		if l, err := x.Dir("/src/p007", ""); err != nil || len(l) != benchConvs/benchDirs {
			b.Fatalf("Dir: %d, %v", len(l), err)
		}
	}
}

// BenchmarkSearch: a word in one conversation, and a word in a tenth of
// them, over the whole history.
func BenchmarkSearch(b *testing.B) {
	x, _, _ := benchIndex(b)
	for _, q := range []struct {
		name string
		word string
		want int
	}{{"rare", "conversation4242", 1}, {"common", "login", 0}} {
		b.Run(q.name, func(b *testing.B) {
			terms, err := ParseQuery([]string{q.word})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				hits, err := x.Search(Query{Terms: terms, Limit: 20})
				if err != nil || q.want > 0 && len(hits) != q.want || len(hits) == 0 {
					b.Fatalf("search %s: %d hits, %v", q.word, len(hits), err)
				}
			}
		})
	}
}

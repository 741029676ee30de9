// Command engines compares the full-text engines fleetcom could index
// conversations with, on the same synthetic history: SQLite's FTS5 through
// github.com/ncruces/go-sqlite3 (nc) or modernc.org/sqlite (mc), and bleve.
// It is a module of its own, so that the engines fleetcom did not choose
// never enter its go.mod.
//
//	engines -engine nc -mode build -n 10000    # build, and say how long and how big
//	engines -engine nc -mode query -n 10000    # warm queries, medians of 20
//
// The SQLite engines use the schema of fleetcom's index (package index):
// one row per conversation, its text in rows of a full-text table whose
// rowids name their conversation, searched with every term ANDed across a
// conversation's rows and ranked by BM25 among the most recent matches.
// bleve gets one document per conversation with the same text.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// doc is one conversation of the synthetic history.
type doc struct {
	id, cwd, title string
	chunks         []string
	active         int64
}

// engine is one full-text engine under test.
type engine interface {
	build(path string, docs []doc) error
	open(path string) error
	// list returns the conversations of one directory, newest first.
	list(cwd string) (int, error)
	// search runs a query of ANDed terms and returns the hits.
	search(terms []string) (int, error)
	close()
}

func main() {
	eng := flag.String("engine", "nc", "nc, mc or bleve")
	n := flag.Int("n", 10000, "conversations")
	chunks := flag.Int("chunks", 4, "parts of text per conversation")
	size := flag.Int("size", 2048, "bytes per part")
	mode := flag.String("mode", "build", "build or query")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "fleetcom-engines"), "where the indexes go")
	flag.Parse()
	var e engine
	switch *eng {
	case "nc":
		e = &sqliteEngine{opener: openNC}
	case "mc":
		e = &sqliteEngine{opener: openMC}
	case "bleve":
		e = &bleveEngine{}
	default:
		fmt.Fprintln(os.Stderr, "engines: unknown engine", *eng)
		os.Exit(2)
	}
	path := filepath.Join(*dir, fmt.Sprintf("%s-%d-%d-%d", *eng, *n, *chunks, *size))
	switch *mode {
	case "build":
		os.MkdirAll(*dir, 0o755)
		os.RemoveAll(path)
		docs, bytes := history(*n, *chunks, *size)
		t := time.Now()
		if err := e.build(path, docs); err != nil {
			fmt.Fprintln(os.Stderr, "engines:", err)
			os.Exit(1)
		}
		el := time.Since(t)
		e.close()
		fmt.Printf("%s\tbuild\t%d conversations\t%.1f MB text\t%.2f s\t%.1f MB/s\tindex %.1f MB\n",
			*eng, *n, float64(bytes)/1e6, el.Seconds(), float64(bytes)/1e6/el.Seconds(), float64(du(path))/1e6)
	case "query":
		if err := e.open(path); err != nil {
			fmt.Fprintln(os.Stderr, "engines:", err)
			os.Exit(1)
		}
		c := newCorpus(1)
		queries := []struct {
			name string
			run  func() (int, error)
		}{
			{"list a directory of half the history", func() (int, error) { return e.list("/home/u/src/big") }},
			{"list a directory of 10", func() (int, error) { return e.list("/home/u/src/p7") }},
			{"search a rare word", func() (int, error) { return e.search([]string{c.vocab[20000]}) }},
			{"search a marker in 10 conversations", func() (int, error) { return e.search([]string{"zebramarker"}) }},
			{"search two words of middling frequency", func() (int, error) { return e.search([]string{c.vocab[200], c.vocab[300]}) }},
			{"search a phrase of common words", func() (int, error) { return e.search([]string{c.vocab[0] + " " + c.vocab[1]}) }},
			{"search the commonest word", func() (int, error) { return e.search([]string{c.vocab[0]}) }},
		}
		for _, q := range queries {
			var ds []time.Duration
			hits := 0
			for i := 0; i < 21; i++ {
				t := time.Now()
				h, err := q.run()
				if err != nil {
					fmt.Fprintln(os.Stderr, "engines:", q.name, err)
					os.Exit(1)
				}
				ds = append(ds, time.Since(t))
				hits = h
			}
			slices.Sort(ds)
			fmt.Printf("%s\t%s\t%d hits\tmedian %.2f ms\tp90 %.2f ms\n", *eng, q.name, hits,
				float64(ds[10].Microseconds())/1000, float64(ds[18].Microseconds())/1000)
		}
		e.close()
	}
}

// history makes the synthetic conversations: half of them in one
// directory, the rest over 500, and a marker word in every thousandth.
func history(n, chunks, size int) ([]doc, int) {
	c := newCorpus(1)
	docs := make([]doc, n)
	bytes := 0
	for i := range docs {
		cwd := fmt.Sprintf("/home/u/src/p%d", i%500)
		if i%2 == 0 {
			cwd = "/home/u/src/big"
		}
		d := doc{id: fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i), cwd: cwd, title: c.text(60), active: int64(1700000000000 + i*1000)}
		for k := 0; k < chunks; k++ {
			body := c.text(size)
			if i%1000 == 7 && k == 0 {
				body += " zebramarker"
			}
			bytes += len(body)
			d.chunks = append(d.chunks, body)
		}
		docs[i] = d
	}
	return docs, bytes
}

// du is the bytes under path (a file, its -wal and -shm, or a directory).
func du(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		filepath.Walk(p, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				n += fi.Size()
			}
			return nil
		})
	}
	return n
}

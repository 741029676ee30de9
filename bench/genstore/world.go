package main

import (
	"bufio"
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// world is one scratch user being written.
type world struct {
	opts
	home, work, state, data string
	v                       *vocab
	p                       *pool

	mu    sync.Mutex
	convs []conv
}

// conv is one conversation written, for the manifest and the records.
type conv struct {
	tool, id, cwd string
	version       string // the CLI version its files are written as
	home          string // the tool home it is in
	start, end    time.Time
	title         string // the first prompt
	turns         int
	bytes         int64
	path          string // its main file, or the database
	kind          string // "sidechain" or "big" for the odd shapes, else ""
	markers       []planted
}

// planted is a marker word in a conversation, and where: prompt, reply or
// tool (a tool's output).
type planted struct{ word, where string }

func newWorld(o opts) (*world, error) {
	root, err := filepath.Abs(o.root)
	if err != nil {
		return nil, err
	}
	o.root = root
	w := &world{opts: o, home: filepath.Join(root, "home"), work: filepath.Join(root, "work"),
		state: filepath.Join(root, "state"), data: filepath.Join(root, "data")}
	for _, d := range []string{w.home, w.work, w.state, w.data} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	w.v = newVocab(o.seed)
	w.p = newPool(w.v, o.seed)
	return w, nil
}

// project is the directory of project i, made when missing.
func (w *world) project(i int) string {
	d := filepath.Join(w.work, fmt.Sprintf("project-%04d", i))
	_ = os.MkdirAll(d, 0o755)
	return d
}

// rng is conversation i's own random source: it does not depend on the
// order the workers take conversations in.
func (w *world) rng(tool string, i int) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", tool, i)
	return rand.New(rand.NewPCG(w.seed, h.Sum64()))
}

// startOf is when conversation i of n began: spread over the span, the
// higher indexes older, with some jitter.
func (w *world) startOf(r *rand.Rand, i, n int) time.Time {
	f := (float64(i) + r.Float64()) / float64(max(n, 1))
	return w.end.Add(-time.Duration(f * float64(w.span))).Truncate(time.Millisecond)
}

// size draws a transcript size around mean bytes: log-normal, so most are
// smaller than the mean and a few are many times larger.
func size(r *rand.Rand, mean int) int {
	const sigma = 1.0
	x := math.Exp(r.NormFloat64()*sigma - sigma*sigma/2)
	return max(2<<10, min(int(float64(mean)*x), 40*mean))
}

// markersOf says which markers conversation i of n gets: marker k goes to
// about 1, 10, 100 or 1,000 conversations (k mod 4), in the prompt, the
// reply or a tool's output (k mod 3).
func markersOf(tool string, i, n int) []planted {
	var out []planted
	for k, m := range markers {
		count := []int{1, 10, 100, 1000}[k%4]
		stride := max(1, n/count)
		if (i+k*7)%stride != stride/2 {
			continue
		}
		out = append(out, planted{word: m, where: []string{"prompt", "reply", "tool"}[k%3]})
	}
	return out
}

// at is the markers ms plants at where, separated by spaces.
func at(ms []planted, where string) string {
	var words []string
	for _, m := range ms {
		if m.where == where {
			words = append(words, m.word)
		}
	}
	return strings.Join(words, " ")
}

// calls is how many tool calls a turn makes: up to four, at least one
// when a marker is to go in a tool's output.
func calls(r *rand.Rand, marker string) int {
	n := r.IntN(5)
	if marker != "" {
		n = max(n, 1)
	}
	return n
}

// parallel runs fn(i) for i in [0, n) on a worker per CPU and adds the
// conversations it returns.
func (w *world) parallel(n int, fn func(i int) (conv, error)) error {
	out := make([]conv, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	w.add(out...)
	return nil
}

func (w *world) add(cs ...conv) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.convs = append(w.convs, cs...)
}

func (w *world) count(tool string) int {
	n := 0
	for _, c := range w.convs {
		if c.tool == tool {
			n++
		}
	}
	return n
}

func (w *world) bytes(tool string) int64 {
	var n int64
	for _, c := range w.convs {
		if c.tool == tool {
			n += c.bytes
		}
	}
	return n
}

func sortConvs(cs []conv) {
	slices.SortStableFunc(cs, func(a, b conv) int {
		return cmp.Or(cmp.Compare(a.tool, b.tool), b.end.Compare(a.end), cmp.Compare(a.id, b.id))
	})
}

// sink writes a file through a buffer, counting bytes.
type sink struct {
	f    *os.File
	b    *bufio.Writer
	n    int64
	line []byte // the line being built, reused
}

func create(path string, mode os.FileMode) (*sink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return nil, err
	}
	return &sink{f: f, b: bufio.NewWriterSize(f, 1<<20), line: make([]byte, 0, 64<<10)}, nil
}

// emit writes s.line and a newline, and empties it.
func (s *sink) emit() {
	s.line = append(s.line, '\n')
	s.b.Write(s.line)
	s.n += int64(len(s.line))
	s.line = s.line[:0]
}

// close flushes and closes the file and dates it at mtime.
func (s *sink) close(mtime time.Time) error {
	err := s.b.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(s.f.Name(), mtime, mtime)
	}
	return err
}

// writeFile writes a small file dated at mtime.
func writeFile(path string, data []byte, mtime time.Time) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return err
	}
	return os.Chtimes(path, mtime, mtime)
}

// clock hands out the times of a conversation's lines: a turn every few
// minutes, lines within a turn a few seconds apart.
type clock struct {
	t time.Time
	r *rand.Rand
}

func (c *clock) step() time.Time {
	c.t = c.t.Add(time.Duration(200+c.r.IntN(4000)) * time.Millisecond)
	return c.t
}

func (c *clock) pause() time.Time {
	c.t = c.t.Add(time.Duration(30+c.r.IntN(600)) * time.Second)
	return c.t
}

// prompt is a user's prompt: a few sentences, sometimes naming a file,
// with marker m when it is not "".
func (w *world) prompt(r *rand.Rand, m string) string {
	var b []byte
	b = w.v.prose(b, r, 5+r.IntN(30))
	if r.IntN(3) == 0 {
		b = append(b, " See "...)
		b = append(b, w.v.word(r)...)
		b = append(b, '/')
		b = append(b, w.v.word(r)...)
		b = append(b, ".go."...)
	}
	if m != "" {
		b = append(b, " Also "...)
		b = append(b, m...)
		b = append(b, '.')
	}
	return string(b)
}

// reply is an assistant's answer, with marker m when it is not "".
func (w *world) reply(r *rand.Rand, m string, words int) string {
	b := w.v.prose(nil, r, words)
	if m != "" {
		b = append(b, " That is the "...)
		b = append(b, m...)
		b = append(b, " case."...)
	}
	return string(b)
}

// output appends about n bytes of a tool's output, JSON-escaped, with
// marker m when it is not "".
func (w *world) output(b []byte, r *rand.Rand, n int, m string) []byte {
	b = w.p.cut(b, r, n)
	if m != "" {
		b = append(b, m...)
		b = append(b, `\n`...)
	}
	return b
}

// command is a shell command an agent runs.
func (w *world) command(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return "go test ./" + w.v.word(r) + "/..."
	case 1:
		return "grep -rn " + w.v.word(r) + " ."
	case 2:
		return "ls -la " + w.v.word(r)
	}
	return "git diff --stat"
}

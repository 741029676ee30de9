package index

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// toy is an agent made for these tests: its home holds conv/<slug>/<id>.log,
// one line per event: "C <cwd>" names the directory, "P <text>" is a
// prompt, "R <text>" a reply, "N <name>" names the conversation, "S" marks
// a side thread; each line may start with a Unix second and a space. Its
// reader goes on from the last whole line, as a real one must.
type toy struct{}

var toySpec = harness.Spec{Name: "toy", ID: &harness.UUID, Resume: harness.Spelling{Words: []string{"--resume"}}}

var toyAgent = harness.Agent{Spec: &toySpec, Behaviour: toy{}}

func (toy) Instrument(harness.Form, harness.Run) (harness.Instrumentation, error) {
	return harness.Instrumentation{}, nil
}
func (toy) ScrapeExit([]byte) string           { return "" }
func (toy) Exists(string, string, string) bool { return true }

func (toy) Trees(home string) []harness.Tree {
	return []harness.Tree{{Root: filepath.Join(home, "conv"), Levels: []string{"*", "*.log"}, Owns: true}}
}

func toySlug(cwd string) string { return strings.ReplaceAll(cwd, "/", "-") }

func (toy) Near(home, cwd string) []string {
	return []string{filepath.Join(home, "conv", toySlug(cwd))}
}

func (toy) Read(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	id := strings.TrimSuffix(filepath.Base(path), ".log")
	f, err := safe.Open(path, safe.NoFollow)
	if err != nil {
		return nil, c, err
	}
	defer f.Close()
	if _, err := f.Seek(c.Offset, io.SeekStart); err != nil {
		return nil, c, err
	}
	learned := harness.Learned{ID: id}
	seenPrompt := len(c.State) > 0
	r := bufio.NewReader(f)
	off := c.Offset
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			break // a last line without its newline is not whole yet
		}
		off += int64(len(line))
		line = bytes.TrimSuffix(line, []byte("\n"))
		var at time.Time
		if sec, rest, ok := bytes.Cut(line, []byte(" ")); ok && len(sec) == 10 && sec[0] >= '0' && sec[0] <= '9' {
			var s int64
			fmt.Sscan(string(sec), &s)
			at, line = time.Unix(s, 0), rest
		}
		if len(line) == 0 {
			continue
		}
		text := string(bytes.TrimSpace(line[1:]))
		switch line[0] {
		case 'C':
			learned.Cwd = text
		case 'N':
			learned.Name, learned.Named = text, true
		case 'S':
			learned.Side = true
		case 'P', 'R':
			learned.Messages++
			if line[0] == 'P' {
				learned.Turns++
				if !seenPrompt {
					learned.Title, seenPrompt = text, true
				}
			}
			if l.Text {
				learned.Texts = append(learned.Texts, text)
			}
			if !at.IsZero() {
				if learned.Started.IsZero() {
					learned.Started = at
				}
				learned.Active = at
			}
		}
	}
	st := c.State
	if seenPrompt {
		st = []byte{1}
	}
	return harness.Delta{learned}, harness.Cursor{Offset: off, State: st}, nil
}

// toyHome is a scratch home of the toy agent, with helpers to write its
// conversations.
type toyHome struct {
	t    *testing.T
	home string
}

func newToyHome(t *testing.T) *toyHome {
	return &toyHome{t: t, home: t.TempDir()}
}

// path is the file of conversation id of directory cwd.
func (h *toyHome) path(cwd, id string) string {
	return filepath.Join(h.home, "conv", toySlug(cwd), id+".log")
}

// write appends lines to a conversation's file.
func (h *toyHome) write(cwd, id string, lines ...string) {
	h.t.Helper()
	p := h.path(cwd, id)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.WriteString(l + "\n"); err != nil {
			h.t.Fatal(err)
		}
	}
}

// open opens an index of the toy home in dir.
func (h *toyHome) open(dir string, text bool) *Index {
	h.t.Helper()
	return h.openWarning(dir, text, func(m string) { h.t.Log("warning: " + m) })
}

// openWarned opens the index in dir with text, keeping its warnings.
func (h *toyHome) openWarned(dir string) (*Index, *[]string) {
	h.t.Helper()
	var warnings []string
	return h.openWarning(dir, true, func(m string) { warnings = append(warnings, m) }), &warnings
}

func (h *toyHome) openWarning(dir string, text bool, warn func(string)) *Index {
	h.t.Helper()
	x, err := Open(dir, Options{
		Agents: []harness.Agent{toyAgent},
		Homes:  func(harness.Agent) []string { return []string{h.home} },
		Text:   text,
		Warn:   warn,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { x.Close() })
	return x
}

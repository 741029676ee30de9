package picker

import (
	"fmt"
	"slices"
	"testing"
)

var sample = []Row{
	{Key: "anchor:0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cols: []string{"anchor", "2h", "fix the flaky store test", "/home/u/src/project"}},
	{Key: "bravo:01a22b4e-0000-7000-8000-000000000000", Cols: []string{"bravo", "3d", "port the parser to Go", "/home/u/src/parser"}},
	{Key: "echo:11111111-2222-4333-8444-555555555555", Cols: []string{"echo", "5w", "Ünïcode 日本語 title", "/home/u/src/日本"}},
}

var sampleHeader = []string{"TOOL", "AGE", "TITLE", "DIRECTORY"}

func typed(m *model, page int, ks ...key) outcome {
	o := stay
	for _, k := range ks {
		if o = m.press(k, page); o != stay {
			break
		}
	}
	return o
}

func TestModelFilter(t *testing.T) {
	m := newModel(newTable(sampleHeader, sample))
	for _, c := range []struct {
		filter string
		want   []int
	}{
		{"", []int{0, 1, 2}},
		{"PARSER", []int{1}},
		{"src anchor", []int{0}}, // every word, anywhere in the row
		{"日本", []int{2}},         // in the title and the directory
		{"ünï", []int{2}},        // case folded beyond ASCII
		{"2h3d", []int{}},        // a word never spans two columns
		{"nothing here", []int{}},
	} {
		m.filter = []rune(c.filter)
		m.refilter()
		if !slices.Equal(m.matches, c.want) {
			t.Errorf("filter %q matches %v, want %v", c.filter, m.matches, c.want)
		}
	}
}

func TestModelKeys(t *testing.T) {
	m := newModel(newTable(sampleHeader, sample))
	if o := typed(m, 10, k(keyDown), k(keyDown), k(keyDown), k(keyUp)); o != stay || m.choice() != 1 {
		t.Errorf("Down Down Down Up: choice %d", m.choice())
	}
	typed(m, 10, ctrl('n'), ctrl('p'), ctrl('p'), ctrl('j'))
	if m.choice() != 1 {
		t.Errorf("Ctrl-N Ctrl-P Ctrl-P Ctrl-J: choice %d", m.choice())
	}
	typed(m, 10, k(keyEnd))
	if m.choice() != 2 {
		t.Errorf("End: choice %d", m.choice())
	}
	typed(m, 10, k(keyHome))
	if m.choice() != 0 {
		t.Errorf("Home: choice %d", m.choice())
	}
	// Typing resets the selection to the first match; Backspace edits.
	typed(m, 10, k(keyDown))
	if o := typed(m, 10, append(runes("parsx"), k(keyBackspace), key{keyRune, 'e'}, k(keyEnter))...); o != chosen || m.choice() != 1 {
		t.Errorf("parse + Enter: %v, choice %d, filter %q", o, m.choice(), string(m.filter))
	}
	typed(m, 10, ctrl('w'))
	if len(m.filter) != 0 || len(m.matches) != 3 {
		t.Errorf("Ctrl-W left %q", string(m.filter))
	}
	// Enter with nothing matching does nothing.
	if o := typed(m, 10, append(runes("zzz"), k(keyEnter))...); o != stay {
		t.Errorf("Enter with no match: %v", o)
	}
	// Ctrl-D cancels only when the filter is empty.
	if o := typed(m, 10, ctrl('d')); o != stay {
		t.Errorf("Ctrl-D with a filter: %v", o)
	}
	if o := typed(m, 10, ctrl('u'), ctrl('d')); o != cancelled {
		t.Errorf("Ctrl-U Ctrl-D: %v", o)
	}
	for _, c := range []key{k(keyEsc), ctrl('c'), ctrl('g')} {
		if o := typed(m, 10, c); o != cancelled {
			t.Errorf("%v: %v", c, o)
		}
	}
}

func TestModelScroll(t *testing.T) {
	var rows []Row
	for i := range 50 {
		rows = append(rows, Row{Key: fmt.Sprint(i), Cols: []string{fmt.Sprint("row ", i)}})
	}
	m := newModel(newTable(nil, rows))
	typed(m, 10, k(keyPgDn))
	if m.sel != 10 || m.top != 1 {
		t.Errorf("PgDn: sel %d top %d", m.sel, m.top)
	}
	typed(m, 10, k(keyPgDn), k(keyPgDn), k(keyPgDn), k(keyPgDn), k(keyPgDn))
	if m.sel != 49 || m.top != 40 {
		t.Errorf("PgDn to the end: sel %d top %d", m.sel, m.top)
	}
	typed(m, 10, k(keyPgUp))
	if m.sel != 39 || m.top != 39 {
		t.Errorf("PgUp: sel %d top %d", m.sel, m.top)
	}
	// A taller screen shows more rows, and the view fills it again.
	m.scroll(30)
	if m.top != 20 {
		t.Errorf("after growing to 30 rows: top %d", m.top)
	}
}

// TestModelAdd: rows that come later join the matches of the filter as it
// stands, after the ones there, and the selection stays on its row.
func TestModelAdd(t *testing.T) {
	m := newModel(newTable(sampleHeader, sample[:1]))
	m.setFilter("src")
	m.add(sample[1:2])
	typed(m, 10, k(keyDown))
	if !slices.Equal(m.matches, []int{0, 1}) || m.choice() != 1 {
		t.Fatalf("after one row came: matches %v, choice %d", m.matches, m.choice())
	}
	m.add([]Row{{Key: "x:1", Cols: []string{"x", "1m", "elsewhere", "/tmp"}}, sample[2]})
	if !slices.Equal(m.matches, []int{0, 1, 3}) || m.choice() != 1 || len(m.t.cells) != 4 {
		t.Errorf("after two more: matches %v, choice %d, %d rows", m.matches, m.choice(), len(m.t.cells))
	}
	if w := m.t.natural[2]; w != width(sample[2].Cols[2]) && w != width(sample[0].Cols[2]) {
		t.Errorf("title column %d wide, not the widest title's", w)
	}
}

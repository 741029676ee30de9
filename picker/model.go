package picker

import (
	"slices"
	"strings"
	"unicode"
)

// maxFilter bounds the filter, in characters.
const maxFilter = 256

// model is the built-in picker's state, with no terminal in it: the rows,
// the filter typed so far, the rows that match it, which of them is
// selected and which is shown first.
type model struct {
	t       *table
	hay     []string // each row's cells, lowercased, for filtering
	filter  []rune
	matches []int // indexes of rows, in the order given
	sel     int   // index into matches
	top     int   // first match on screen
	multi   bool  // rows can be marked, and the marked ones are chosen
	marked  map[int]bool
	// What Options.Text answered: the keys of the rows whose text holds
	// the filter textFor. While the filter is still that, they match too.
	keys    []string
	text    map[string]bool
	textFor string
	// loading says that more rows are still to come (Options.More).
	loading bool
}

// outcome is what a key press led to.
type outcome int

const (
	stay outcome = iota
	chosen
	cancelled
)

func newModel(t *table) *model {
	m := &model{t: t, hay: make([]string, len(t.cells))}
	for i, cells := range t.cells {
		m.hay[i] = strings.ToLower(strings.Join(cells, " "))
	}
	m.refilter()
	return m
}

// setFilter types q into the filter, as far as the filter takes it.
func (m *model) setFilter(q string) {
	for _, r := range q {
		if len(m.filter) < maxFilter && unicode.IsPrint(r) {
			m.filter = append(m.filter, r)
		}
	}
	m.refilter()
}

// refilter keeps the rows holding every word of the filter, ignoring case,
// or whose text holds it (found), and selects the first of them.
func (m *model) refilter() {
	words, byText := m.terms()
	m.matches = m.matches[:0]
	for i := range m.hay {
		if m.match(i, words, byText) {
			m.matches = append(m.matches, i)
		}
	}
	m.sel, m.top = 0, 0
}

// terms are what a row is matched against: the filter's words, lowercased,
// and whether the text's answer is for the filter as it stands.
func (m *model) terms() ([]string, bool) {
	return strings.Fields(strings.ToLower(string(m.filter))), m.text != nil && m.textFor == string(m.filter)
}

// match reports whether row i holds every word, or its text holds the
// filter (byText: the answer found is for this filter).
func (m *model) match(i int, words []string, byText bool) bool {
	if byText && i < len(m.keys) && m.text[m.keys[i]] {
		return true
	}
	for _, w := range words {
		if !strings.Contains(m.hay[i], w) {
			return false
		}
	}
	return true
}

// add takes rows that came after the picker opened (Options.More): they go
// below the others, those that match the filter join the matches after the
// ones there, and the selection stays on its row.
func (m *model) add(rows []Row) {
	words, byText := m.terms()
	for _, r := range rows {
		i := len(m.t.cells)
		m.t.add(r)
		m.hay = append(m.hay, strings.ToLower(strings.Join(m.t.cells[i], " ")))
		if m.keys != nil {
			m.keys = append(m.keys, r.Key)
		}
		if m.match(i, words, byText) {
			m.matches = append(m.matches, i)
		}
	}
}

// found takes the keys Options.Text returned for filter, when the filter
// is still that: their rows match too. The selected row stays selected,
// on a screen of page rows.
func (m *model) found(filter string, keys []string, page int) {
	if filter != string(m.filter) {
		return
	}
	m.text = make(map[string]bool, len(keys))
	for _, k := range keys {
		m.text[k] = true
	}
	m.textFor = filter
	was := m.choice()
	m.refilter()
	if j := slices.Index(m.matches, was); was >= 0 && j >= 0 {
		m.sel = j
		m.scroll(page)
	}
}

// choice is the index of the selected row, or -1 when nothing matches.
func (m *model) choice() int {
	if len(m.matches) == 0 {
		return -1
	}
	return m.matches[m.sel]
}

// chosen are the rows Enter chose: the marked ones in the order given,
// marked under any filter, else the selected one (as fzf --multi does).
func (m *model) chosen() []int {
	var out []int
	for i := range m.t.cells {
		if m.marked[i] {
			out = append(out, i)
		}
	}
	if len(out) == 0 && m.choice() >= 0 {
		out = []int{m.choice()}
	}
	return out
}

// toggle marks the selected row, or unmarks it, and moves by d.
func (m *model) toggle(d, page int) {
	if len(m.matches) == 0 {
		return
	}
	i := m.matches[m.sel]
	if m.marked == nil {
		m.marked = map[int]bool{}
	}
	if m.marked[i] {
		delete(m.marked, i)
	} else {
		m.marked[i] = true
	}
	m.move(d, page)
}

// press applies one key; page is the number of rows on screen.
//
// Keys: Up, Ctrl-P, Ctrl-K, Shift-Tab move up; Down, Ctrl-N, Ctrl-J, Tab
// down; PgUp and PgDn by a screenful; Home and End to the ends. Characters
// add to the filter, Backspace (Ctrl-H) takes one off, Ctrl-W a word,
// Ctrl-U all. Enter chooses (nothing happens when nothing matches). Esc,
// Ctrl-C, Ctrl-G, and Ctrl-D on an empty filter cancel. Choosing several
// (multi), Tab marks or unmarks the selected row and moves down, Shift-Tab
// the same and up, as in fzf --multi.
func (m *model) press(k key, page int) outcome {
	page = max(page, 1)
	switch k.kind {
	case keyRune:
		if len(m.filter) < maxFilter && unicode.IsPrint(k.r) {
			m.filter = append(m.filter, k.r)
			m.refilter()
		}
	case keyBackspace:
		if len(m.filter) > 0 {
			m.filter = m.filter[:len(m.filter)-1]
			m.refilter()
		}
	case keyEnter:
		if len(m.matches) > 0 {
			return chosen
		}
	case keyEsc:
		return cancelled
	case keyBacktab:
		if m.multi {
			m.toggle(-1, page)
		} else {
			m.move(-1, page)
		}
	case keyUp:
		m.move(-1, page)
	case keyDown:
		m.move(1, page)
	case keyPgUp:
		m.move(-page, page)
	case keyPgDn:
		m.move(page, page)
	case keyHome:
		m.move(-len(m.matches), page)
	case keyEnd:
		m.move(len(m.matches), page)
	case keyCtrl:
		return m.ctrl(k.r, page)
	}
	return stay
}

func (m *model) ctrl(r rune, page int) outcome {
	switch r {
	case 'c', 'g':
		return cancelled
	case 'd':
		if len(m.filter) == 0 {
			return cancelled
		}
	case 'p', 'k':
		m.move(-1, page)
	case 'i':
		if m.multi {
			m.toggle(1, page)
		} else {
			m.move(1, page)
		}
	case 'n', 'j':
		m.move(1, page)
	case 'u':
		if len(m.filter) > 0 {
			m.filter = m.filter[:0]
			m.refilter()
		}
	case 'w':
		n := len(m.filter)
		for n > 0 && unicode.IsSpace(m.filter[n-1]) {
			n--
		}
		for n > 0 && !unicode.IsSpace(m.filter[n-1]) {
			n--
		}
		if n != len(m.filter) {
			m.filter = m.filter[:n]
			m.refilter()
		}
	}
	return stay
}

// move moves the selection by d rows, stopping at the ends, and scrolls so
// that it stays on screen.
func (m *model) move(d, page int) {
	if len(m.matches) == 0 {
		return
	}
	m.sel = min(max(m.sel+d, 0), len(m.matches)-1)
	m.scroll(page)
}

// scroll puts the selection on a screen of page rows, moving the view as
// little as possible; after a resize it also fills the screen again.
func (m *model) scroll(page int) {
	page = max(page, 1)
	if m.sel < m.top {
		m.top = m.sel
	}
	if m.sel >= m.top+page {
		m.top = m.sel - page + 1
	}
	m.top = max(min(m.top, len(m.matches)-page), 0)
}

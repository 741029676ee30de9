package picker

import (
	"bytes"
	"fmt"
	"strings"
)

// The built-in picker draws on the alternate screen, the one full-screen
// programs use, rather than inline below the cursor:
//   - the user's screen and scrollback come back exactly as they were, with
//     nothing of the picker left in them;
//   - a resize is a plain redraw: terminals reflow the lines of the normal
//     screen when the width changes, which breaks an inline drawing whose
//     position is known only relative to the cursor;
//   - nothing needs asking the terminal where the cursor is (an answer read
//     back from the input, with a timeout) or scrolling it to make room.
//
// While it is open, auto-wrap is off and the last column is left empty, so
// a character the terminal draws wider than counted can never push a line
// onto the next one; and bracketed paste is on (see decoder).
//
// These are the only control sequences the picker writes: the ones below,
// cursor positioning ESC [ row ; col H, erasing ESC [ K and ESC [ J, and the
// attributes ESC [ m, ESC [ 1 m (header), ESC [ 2 m (dim) and ESC [ 7 m
// (selected row). Everything else it writes went through Printable.
const (
	enterSeq = "\x1b[?1049h\x1b[?7l\x1b[?2004h"
	leaveSeq = "\x1b[?2004l\x1b[?7h\x1b[?25h\x1b[?1049l"
)

// listRows is the number of rows shown on a screen h lines high: all but
// the prompt and the header, or all but the prompt on a tiny screen.
func listRows(h int) int {
	if h >= 3 {
		return h - 2
	}
	return max(h-1, 0)
}

// frame draws the whole picker for a screen of w columns and h lines: the
// prompt line with the filter and the count of matches, the header, then a
// screenful of matching rows with the selected one in reverse video.
func (m *model) frame(w, h int) []byte {
	cols := max(w-1, 1)
	page := listRows(h)
	m.scroll(page)

	var b bytes.Buffer
	b.WriteString("\x1b[?25l")
	line := func(y int, s string) {
		fmt.Fprintf(&b, "\x1b[%d;1H%s\x1b[K", y, s)
	}

	filter := Printable(string(m.filter))
	count := fmt.Sprintf("%d/%d", len(m.matches), len(m.t.cells))
	if m.loading {
		count += "…"
	}
	if len(m.marked) > 0 {
		count += fmt.Sprintf(" (%d marked)", len(m.marked))
	}
	// Each row is led by the cursor mark, and choosing several, by the
	// row's own mark.
	lead := 2
	if m.multi {
		lead = 3
	}
	marks := func(i int, cursor string) string {
		if !m.multi {
			return cursor + " "
		}
		if m.marked[m.matches[i]] {
			return cursor + "* "
		}
		return cursor + "  "
	}
	room := cols - 2
	shown := cutLeft(filter, room)
	prompt := "> " + shown
	if fw := room - width(count) - 2; fw >= 8 {
		shown = cutLeft(filter, fw)
		prompt = "> " + pad(shown, fw) + "  \x1b[2m" + count + "\x1b[m"
	}
	if room <= 0 {
		shown, prompt = "", cut(">", cols)
	}
	line(1, prompt)

	y := 2
	widths := fit(m.t.natural, cols-lead)
	if h >= 3 {
		line(y, "\x1b[1m"+cut(strings.Repeat(" ", lead)+format(m.t.header, widths), cols)+"\x1b[m")
		y++
	}
	if len(m.matches) == 0 && page > 0 {
		line(y, "\x1b[2m"+cut("  no match", cols)+"\x1b[m")
		y++
	}
	for i := m.top; i < len(m.matches) && i < m.top+page; i++ {
		row := format(m.t.cells[m.matches[i]], widths)
		if i == m.sel {
			line(y, "\x1b[7m"+pad(cut(marks(i, ">")+row, cols), cols)+"\x1b[m")
		} else {
			line(y, cut(marks(i, " ")+strings.TrimRight(row, " "), cols))
		}
		y++
	}
	if y <= h {
		fmt.Fprintf(&b, "\x1b[%d;1H\x1b[J", y)
	}
	fmt.Fprintf(&b, "\x1b[1;%dH\x1b[?25h", min(3+width(shown), cols))
	return b.Bytes()
}

package picker

import "strings"

// gap is the number of spaces between two columns.
const gap = 2

// table is what both pickers show: the header and every row's cells, made
// printable once, with each column's natural width.
type table struct {
	header  []string
	cells   [][]string
	natural []int
}

func newTable(header []string, rows []Row) *table {
	t := &table{header: make([]string, len(header)), natural: make([]int, len(header))}
	for i, h := range header {
		t.header[i] = Printable(h)
		t.natural[i] = width(t.header[i])
	}
	t.cells = make([][]string, 0, len(rows))
	for _, r := range rows {
		t.add(r)
	}
	return t
}

// add puts r below the rows already there. A row of more columns than the
// table has adds columns without a header; the rows before it show them
// empty.
func (t *table) add(r Row) {
	for len(t.natural) < len(r.Cols) {
		t.header = append(t.header, "")
		t.natural = append(t.natural, 0)
	}
	cells := make([]string, len(t.natural))
	for j, c := range r.Cols {
		cells[j] = Printable(c)
		t.natural[j] = max(t.natural[j], width(cells[j]))
	}
	t.cells = append(t.cells, cells)
}

// fit shares avail cells between columns of the given natural widths. When
// they do not all fit, the widest give way first: every column is capped at
// the largest width that lets the line fit, so short columns such as a tool
// or an age stay whole while a long title and a long directory are cut.
func fit(natural []int, avail int) []int {
	out := append([]int(nil), natural...)
	if len(out) == 0 {
		return out
	}
	room := avail - gap*(len(out)-1)
	capped := func(c int) int {
		s := 0
		for _, w := range natural {
			s += min(w, c)
		}
		return s
	}
	widest := 0
	for _, w := range natural {
		widest = max(widest, w)
	}
	if capped(widest) <= room {
		return out
	}
	if room <= 0 {
		clear(out)
		return out
	}
	lo, hi := 0, widest
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if capped(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	left := room - capped(lo)
	for i, w := range natural {
		if w > lo {
			out[i] = lo
			if left > 0 { // fewer cells are left than capped columns
				out[i]++
				left--
			}
		}
	}
	return out
}

// format lays cells out in columns of the given widths: each cut to its
// column and padded, but the last one, which is only cut.
func format(cells []string, widths []int) string {
	var b strings.Builder
	for i, w := range widths {
		if i > 0 {
			b.WriteString(strings.Repeat(" ", gap))
		}
		var c string
		if i < len(cells) {
			c = cut(cells[i], w)
		}
		if i < len(widths)-1 {
			c = pad(c, w)
		}
		b.WriteString(c)
	}
	return b.String()
}

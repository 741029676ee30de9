package picker

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// vt is a small, strict model of a terminal, enough to read back what the
// picker draws: it understands exactly the sequences the picker promises to
// write (screen.go) and records as a fault anything else: another escape
// sequence, a raw control character, or a character written past the right
// edge (which a real terminal would wrap onto the next line).
type vt struct {
	w, h   int
	main   [][]string
	alt    [][]string
	rev    [][]bool
	onAlt  bool
	x, y   int
	attr   bool // reverse video
	widest int  // rightmost column written, 1-based
	faults []string
	rest   []byte // an incomplete sequence at the end of the last write
}

func newVT(w, h int) *vt {
	v := &vt{w: w, h: h}
	v.main, v.alt = grid(w, h), grid(w, h)
	v.rev = make([][]bool, h)
	for i := range v.rev {
		v.rev[i] = make([]bool, w)
	}
	return v
}

func grid(w, h int) [][]string {
	g := make([][]string, h)
	for i := range g {
		g[i] = make([]string, w)
		for j := range g[i] {
			g[i][j] = " "
		}
	}
	return g
}

func (v *vt) cells() [][]string {
	if v.onAlt {
		return v.alt
	}
	return v.main
}

func (v *vt) fault(format string, args ...any) {
	v.faults = append(v.faults, fmt.Sprintf(format, args...))
}

var csiRE = regexp.MustCompile(`^\x1b\[([0-9;?]*)([\x40-\x7e])`)

func (v *vt) write(b []byte) {
	b = append(v.rest, b...)
	v.rest = nil
	for len(b) > 0 {
		c := b[0]
		switch {
		case c == 0x1b:
			m := csiRE.FindSubmatch(b)
			if m == nil {
				if len(b) < 16 && !strings.ContainsAny(string(b[1:]), "\x1b") && (len(b) == 1 || b[1] == '[') {
					v.rest = append([]byte(nil), b...) // wait for the rest
					return
				}
				v.fault("unexpected escape %q", b[:min(len(b), 12)])
				b = b[1:]
				continue
			}
			v.csi(string(m[1]), m[2][0], string(m[0]))
			b = b[len(m[0]):]
		case c == '\r':
			v.x = 0
			b = b[1:]
		case c == '\n':
			v.y = min(v.y+1, v.h-1)
			b = b[1:]
		case c < 0x20 || c == 0x7f:
			v.fault("raw control byte %#x", c)
			b = b[1:]
		default:
			if !utf8.FullRune(b) {
				v.rest = append([]byte(nil), b...)
				return
			}
			r, n := utf8.DecodeRune(b)
			b = b[n:]
			if r == utf8.RuneError && n == 1 {
				v.fault("invalid UTF-8")
				continue
			}
			if r >= 0x80 && r < 0xa0 || bidi(r) {
				v.fault("C1 or bidi control %U", r)
				continue
			}
			v.put(r)
		}
	}
}

func (v *vt) put(r rune) {
	rw := runeWidth(r)
	g := v.cells()
	if rw == 0 {
		if v.x > 0 {
			g[v.y][v.x-1] += string(r)
		}
		return
	}
	if v.x+rw > v.w {
		v.fault("line %d would wrap at %q", v.y+1, r)
		return
	}
	g[v.y][v.x] = string(r)
	v.rev[v.y][v.x] = v.attr
	if rw == 2 {
		g[v.y][v.x+1] = ""
	}
	v.x += rw
	v.widest = max(v.widest, v.x)
}

func (v *vt) csi(params string, final byte, seq string) {
	g := v.cells()
	switch {
	case final == 'H' && !strings.Contains(params, "?"):
		row, col := 1, 1
		if params != "" {
			p := strings.Split(params, ";")
			row, _ = strconv.Atoi(p[0])
			if len(p) > 1 {
				col, _ = strconv.Atoi(p[1])
			}
		}
		v.y, v.x = min(max(row, 1), v.h)-1, min(max(col, 1), v.w)-1
	case final == 'K' && params == "":
		for x := v.x; x < v.w; x++ {
			g[v.y][x], v.rev[v.y][x] = " ", false
		}
	case final == 'J' && params == "":
		v.csi("", 'K', "")
		for y := v.y + 1; y < v.h; y++ {
			for x := range g[y] {
				g[y][x], v.rev[y][x] = " ", false
			}
		}
	case final == 'm' && (params == "" || params == "0" || params == "1" || params == "2" || params == "7"):
		v.attr = params == "7"
	case (final == 'h' || final == 'l') && (params == "?1049" || params == "?7" || params == "?25" || params == "?2004"):
		if params == "?1049" {
			v.onAlt = final == 'h'
			if v.onAlt {
				v.alt = grid(v.w, v.h)
			}
		}
	default:
		v.fault("unexpected sequence %q", seq)
	}
}

// lines is the screen shown, one string per line, without trailing spaces.
func (v *vt) lines() []string {
	out := make([]string, v.h)
	for y, row := range v.cells() {
		out[y] = strings.TrimRight(strings.Join(row, ""), " ")
	}
	return out
}

// text is the screen as one string.
func (v *vt) text() string { return strings.Join(v.lines(), "\n") }

// selected is the line in reverse video, or "".
func (v *vt) selected() string {
	for y := range v.h {
		if v.rev[y][2] {
			return v.lines()[y]
		}
	}
	return ""
}

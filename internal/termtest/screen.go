package termtest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Screen is a small, strict model of a terminal, enough to read back what a
// program draws that promises a narrow set of sequences: cursor position
// (CSI H), erase to the end of the line and of the screen (CSI K, CSI J),
// plain and reverse video (SGR 0, 1, 2, 7), the alternate screen, line wrap,
// cursor and bracketed-paste modes (?1049, ?7, ?25, ?2004), CR and LF.
// Anything else is recorded as a fault: another escape sequence, a raw
// control character, a C1 or bidirectional control, invalid UTF-8, or a
// character written past the right edge (which a real terminal would wrap
// onto the next line).
type Screen struct {
	w, h   int
	width  func(rune) int
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

// NewScreen returns a blank w × h screen that counts the cells a character
// takes with width, as the program under test does.
func NewScreen(w, h int, width func(rune) int) *Screen {
	s := &Screen{w: w, h: h, width: width}
	s.main, s.alt = grid(w, h), grid(w, h)
	s.rev = make([][]bool, h)
	for i := range s.rev {
		s.rev[i] = make([]bool, w)
	}
	return s
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

func (s *Screen) cells() [][]string {
	if s.onAlt {
		return s.alt
	}
	return s.main
}

func (s *Screen) fault(format string, args ...any) {
	s.faults = append(s.faults, fmt.Sprintf(format, args...))
}

var csiRE = regexp.MustCompile(`^\x1b\[([0-9;?]*)([\x40-\x7e])`)

// Write feeds the screen what the program wrote; a sequence cut at the end
// waits for the rest. It never fails.
func (s *Screen) Write(b []byte) (int, error) {
	n := len(b)
	b = append(s.rest, b...)
	s.rest = nil
	for len(b) > 0 {
		c := b[0]
		switch {
		case c == 0x1b:
			m := csiRE.FindSubmatch(b)
			if m == nil {
				if len(b) < 16 && !strings.ContainsAny(string(b[1:]), "\x1b") && (len(b) == 1 || b[1] == '[') {
					s.rest = append([]byte(nil), b...) // wait for the rest
					return n, nil
				}
				s.fault("unexpected escape %q", b[:min(len(b), 12)])
				b = b[1:]
				continue
			}
			s.csi(string(m[1]), m[2][0], string(m[0]))
			b = b[len(m[0]):]
		case c == '\r':
			s.x = 0
			b = b[1:]
		case c == '\n':
			s.y = min(s.y+1, s.h-1)
			b = b[1:]
		case c < 0x20 || c == 0x7f:
			s.fault("raw control byte %#x", c)
			b = b[1:]
		default:
			if !utf8.FullRune(b) {
				s.rest = append([]byte(nil), b...)
				return n, nil
			}
			r, size := utf8.DecodeRune(b)
			b = b[size:]
			if r == utf8.RuneError && size == 1 {
				s.fault("invalid UTF-8")
				continue
			}
			if r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Bidi_Control, r) {
				s.fault("C1 or bidi control %U", r)
				continue
			}
			s.put(r)
		}
	}
	return n, nil
}

func (s *Screen) put(r rune) {
	rw := s.width(r)
	g := s.cells()
	if rw == 0 {
		if s.x > 0 {
			g[s.y][s.x-1] += string(r)
		}
		return
	}
	if s.x+rw > s.w {
		s.fault("line %d would wrap at %q", s.y+1, r)
		return
	}
	g[s.y][s.x] = string(r)
	s.rev[s.y][s.x] = s.attr
	if rw == 2 {
		g[s.y][s.x+1] = ""
	}
	s.x += rw
	s.widest = max(s.widest, s.x)
}

func (s *Screen) csi(params string, final byte, seq string) {
	g := s.cells()
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
		s.y, s.x = min(max(row, 1), s.h)-1, min(max(col, 1), s.w)-1
	case final == 'K' && params == "":
		for x := s.x; x < s.w; x++ {
			g[s.y][x], s.rev[s.y][x] = " ", false
		}
	case final == 'J' && params == "":
		s.csi("", 'K', "")
		for y := s.y + 1; y < s.h; y++ {
			for x := range g[y] {
				g[y][x], s.rev[y][x] = " ", false
			}
		}
	case final == 'm' && (params == "" || params == "0" || params == "1" || params == "2" || params == "7"):
		s.attr = params == "7"
	case (final == 'h' || final == 'l') && (params == "?1049" || params == "?7" || params == "?25" || params == "?2004"):
		if params == "?1049" {
			s.onAlt = final == 'h'
			if s.onAlt {
				s.alt = grid(s.w, s.h)
			}
		}
	default:
		s.fault("unexpected sequence %q", seq)
	}
}

// Lines is the screen shown, one string per line, without trailing spaces.
func (s *Screen) Lines() []string {
	out := make([]string, s.h)
	for y, row := range s.cells() {
		out[y] = strings.TrimRight(strings.Join(row, ""), " ")
	}
	return out
}

// Text is the screen shown as one string, its lines joined by newlines.
func (s *Screen) Text() string { return strings.Join(s.Lines(), "\n") }

// Reverse reports whether the cell at column x of line y (both from 0) is
// in reverse video.
func (s *Screen) Reverse(x, y int) bool { return s.rev[y][x] }

// Alt reports whether the alternate screen is shown.
func (s *Screen) Alt() bool { return s.onAlt }

// Widest is the rightmost column written, counted from 1.
func (s *Screen) Widest() int { return s.widest }

// Faults are what the screen was fed that the model refuses, in order.
func (s *Screen) Faults() []string { return s.faults }

// Pending is an incomplete sequence at the end of what was fed.
func (s *Screen) Pending() []byte { return s.rest }

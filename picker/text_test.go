package picker

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain title", "plain title"},
		{"two\nlines\r\n\tand a tab", "two lines   and a tab"},
		{"\x1b]0;pwned\x07", "^[]0;pwned^G"},
		{"\x1b[2Jclear", "^[[2Jclear"},
		{"del\x7f nul\x00", "del^? nul^@"},
		{"c1 \u009b31m", "c1 \uFFFD31m"},
		{"bad \xff\xfe utf8", "bad \uFFFD\uFFFD utf8"},
		{"rtl \u202egnp.exe", "rtl \uFFFDgnp.exe"},
		{"日本語 é e\u0301", "日本語 é e\u0301"},
	} {
		if got := Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzPrintable checks that no input survives Printable as anything a
// terminal would act on.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"\x1b[31mred", "\x9b2J", "\u009b2J", "a\u202eb", "\xff", "日本\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if !utf8.ValidString(p) {
			t.Fatalf("Printable(%q) = %q: invalid UTF-8", s, p)
		}
		for _, r := range p {
			if r < 0x20 || r >= 0x7f && r < 0xa0 || bidi(r) || r == 0x2028 || r == 0x2029 {
				t.Fatalf("Printable(%q) = %q: holds %U", s, p, r)
			}
		}
	})
}

func TestWidth(t *testing.T) {
	for _, c := range []struct {
		s string
		w int
	}{
		{"abc", 3}, {"日本語", 6}, {"e\u0301", 1}, {"한국", 4}, {"🙂", 2}, {"ｆｕｌｌ", 8},
		{"a\u200db", 2}, {"…", 1}, {"Ä", 1},
	} {
		if got := width(c.s); got != c.w {
			t.Errorf("width(%q) = %d, want %d", c.s, got, c.w)
		}
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"hello", 1, "…"},
		{"hello", 0, ""},
		{"日本語", 5, "日本…"},
		{"日本語", 4, "日…"}, // the second wide character would straddle the cut
		{"e\u0301e\u0301e\u0301", 2, "e\u0301…"},
	} {
		got := cut(c.s, c.w)
		if got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if width(got) > c.w {
			t.Errorf("cut(%q, %d) = %q is %d wide", c.s, c.w, got, width(got))
		}
	}
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello", 3, "…lo"},
		{"日本語", 4, "…語"},
		{"xae\u0301", 2, "…e\u0301"},
	} {
		if got := cutLeft(c.s, c.w); got != c.want {
			t.Errorf("cutLeft(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
	if got := pad("日", 4); got != "日  " {
		t.Errorf("pad = %q", got)
	}
	long := strings.Repeat("x", 100)
	for w := 0; w < 110; w++ {
		if got := width(cut(long, w)); got > w {
			t.Fatalf("cut to %d is %d wide", w, got)
		}
	}
}

package picker

import (
	"strings"
	"testing"
)

// hostileRows hold what a title or a directory read from a file may: escape
// sequences, other controls, invalid UTF-8, bidi overrides, wide characters.
var hostileRows = []Row{
	{Key: "a", Cols: []string{"anchor", "2h", "\x1b]0;pwned\x07title \x1b[31mred\x1b[0m \x1b[2J", "/tmp/\x1b[1;1Hdir"}},
	{Key: "b", Cols: []string{"bravo", "3d", "c1 \u009b31m and \xff\xfe and \u202eevil", "/home/u/日本語/プロジェクト"}},
	{Key: "c", Cols: []string{"echo", "1y", strings.Repeat("長いタイトル ", 20), "/a/very/long/" + strings.Repeat("directory/", 12)}},
	{Key: "d", Cols: []string{"anchor", "5m", "e\u0301\u0301 combining and 🙂 emoji", "\n\r\t"}},
}

// TestFrameFits draws the picker on screens of every size from 1×1 to
// 100×12 and reads it back: nothing but the picker's own sequences, no line
// reaching the last column, and nothing wrapped.
func TestFrameFits(t *testing.T) {
	m := newModel(newTable(sampleHeader, hostileRows))
	for _, filter := range []string{"", "長い", "no such row", strings.Repeat("日本", 60)} {
		m.filter = []rune(filter)
		m.refilter()
		for w := 1; w <= 100; w++ {
			for h := 1; h <= 12; h++ {
				v := newVT(w, h)
				v.Write([]byte(enterSeq))
				v.Write(m.frame(w, h))
				if len(v.Faults()) > 0 || len(v.Pending()) > 0 {
					t.Fatalf("%d×%d, filter %q: %v (pending %q)\n%s", w, h, filter, v.Faults(), v.Pending(), v.Text())
				}
				if v.Widest() > max(w-1, 1) {
					t.Fatalf("%d×%d: column %d written\n%s", w, h, v.Widest(), v.Text())
				}
			}
		}
	}
}

func TestFrameShows(t *testing.T) {
	m := newModel(newTable(sampleHeader, hostileRows))
	m.press(k(keyDown), 10)
	v := newVT(60, 8)
	v.Write(m.frame(60, 8))
	lines := v.Lines()
	for i, want := range []string{
		"> ", // then the count, right-aligned
		"  TOOL    AGE  TITLE",
		"  anchor  2h   ^[]0;pwned^Gtitle",
		"> bravo   3d   c1 \uFFFD31m and \uFFFD\uFFFD and",
		"  echo    1y   長いタイトル",
		"  anchor  5m   e\u0301\u0301 combining",
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want it to start with %q", i+1, lines[i], want)
		}
	}
	if !strings.HasSuffix(lines[0], "4/4") {
		t.Errorf("prompt line = %q", lines[0])
	}
	if sel := selected(v); !strings.HasPrefix(sel, "> bravo") {
		t.Errorf("selected line = %q", sel)
	}
	if !strings.Contains(lines[4], "…") {
		t.Errorf("a long title is not cut: %q", lines[4])
	}
}

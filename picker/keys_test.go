package picker

import (
	"slices"
	"testing"
)

func k(kind keyKind) key { return key{kind: kind} }
func ctrl(r rune) key    { return key{keyCtrl, r} }
func runes(s string) []key {
	var ks []key
	for _, r := range s {
		ks = append(ks, key{keyRune, r})
	}
	return ks
}

var keyCases = []struct {
	in   string
	want []key
}{
	{"abc", runes("abc")},
	{"\r", []key{k(keyEnter)}},
	{"\x1b[A\x1b[B\x1bOA\x1bOB", []key{k(keyUp), k(keyDown), k(keyUp), k(keyDown)}},
	{"\x1b[5~\x1b[6~\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[7~\x1b[8~\x1bOH\x1bOF",
		[]key{k(keyPgUp), k(keyPgDn), k(keyHome), k(keyEnd), k(keyHome), k(keyEnd), k(keyHome), k(keyEnd), k(keyHome), k(keyEnd)}},
	{"\x1b[1;5A\x1b[Z", []key{k(keyUp), k(keyBacktab)}},
	{"\x03\x07\x04\x10\x0e\x0b\x0a\x09\x15\x17", []key{ctrl('c'), ctrl('g'), ctrl('d'), ctrl('p'), ctrl('n'), ctrl('k'), ctrl('j'), ctrl('i'), ctrl('u'), ctrl('w')}},
	{"\x7f\x08", []key{k(keyBackspace), k(keyBackspace)}},
	{"\x1b\x1b", []key{k(keyEsc), k(keyEsc)}},
	{"\x1bx\x1b[C\x1b[3~y", runes("y")}, // Alt-x, Right and Delete mean nothing here
	{"日本\u0301", runes("日本\u0301")},
	{"\x1b[200~pa\r\nste\x1b[A\x1b[201~\r", append(runes("pa  ste"), k(keyEnter))},
	{"\xff\xc2\x9bz", runes("z")}, // invalid UTF-8 and a C1 control are dropped
	{"\x1b[" + string(make([]byte, 40)) + "q", runes("q")},
}

func TestDecoder(t *testing.T) {
	for _, c := range keyCases {
		var d decoder
		got := append(d.feed([]byte(c.in)), d.flush()...)
		if !slices.Equal(got, c.want) {
			t.Errorf("decode %q = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestDecoderSplit feeds every input in two reads, split everywhere: keys
// split across reads must come out the same as when read whole.
func TestDecoderSplit(t *testing.T) {
	for _, c := range keyCases {
		for i := 1; i < len(c.in); i++ {
			var d decoder
			got := d.feed([]byte(c.in[:i]))
			got = append(got, d.feed([]byte(c.in[i:]))...)
			got = append(got, d.flush()...)
			if !slices.Equal(got, c.want) {
				t.Errorf("decode %q split at %d = %v, want %v", c.in, i, got, c.want)
			}
		}
	}
}

func TestDecoderLoneEsc(t *testing.T) {
	var d decoder
	if got := d.feed([]byte("\x1b")); len(got) != 0 || !d.waiting() {
		t.Fatalf("a lone ESC decoded at once: %v", got)
	}
	if got := d.flush(); !slices.Equal(got, []key{k(keyEsc)}) || d.waiting() {
		t.Errorf("flushed ESC = %v", got)
	}
	// A sequence cut short by the wait is dropped, not typed into the filter.
	d.feed([]byte("\x1b["))
	if got := d.flush(); len(got) != 0 {
		t.Errorf("flushed ESC [ = %v", got)
	}
	if got := d.feed([]byte("B")); !slices.Equal(got, runes("B")) {
		t.Errorf("after the flush: %v", got)
	}
	d.feed([]byte("\xe6\x97"))
	if got := d.feed([]byte("\xa5")); !slices.Equal(got, runes("日")) {
		t.Errorf("split UTF-8 = %v", got)
	}
}

// FuzzDecoder checks that any bytes, read in any two pieces, decode without
// a panic to the same keys as read whole, and that nothing stays pending
// after a flush.
func FuzzDecoder(f *testing.F) {
	for _, c := range keyCases {
		f.Add([]byte(c.in), uint8(len(c.in)/2))
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint8) {
		i := min(int(at), len(b))
		var whole, split decoder
		a := append(whole.feed(b), whole.flush()...)
		s := append(split.feed(b[:i]), split.feed(b[i:])...)
		s = append(s, split.flush()...)
		if !slices.Equal(a, s) {
			t.Fatalf("%q: whole %v, split at %d %v", b, a, i, s)
		}
		if whole.waiting() || split.waiting() {
			t.Fatalf("%q: bytes pending after a flush", b)
		}
	})
}

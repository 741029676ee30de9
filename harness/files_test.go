package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ScanLines hands over every complete line as it was written, whatever its
// length against the read buffer: shorter, the same, one longer, several
// times longer. A last line without its newline is still being written and
// is not handed over; a line over MaxLine is skipped whole, and the line
// after it is read as usual.
func TestScanLines(t *testing.T) {
	var want []string
	var in bytes.Buffer
	for i, n := range []int{0, 1, lineBuffer - 2, lineBuffer - 1, lineBuffer, lineBuffer + 1, 3*lineBuffer + 7, 5} {
		line := strings.Repeat(string(rune('a'+i)), n)
		want = append(want, line)
		in.WriteString(line + "\n")
	}
	in.WriteString(strings.Repeat("x", MaxLine+1) + "\n")
	want = append(want, "after the long one")
	in.WriteString("after the long one\n")
	in.WriteString("still being written")

	var got []string
	if err := ScanLines(bytes.NewReader(in.Bytes()), func(line []byte) bool {
		got = append(got, string(line))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %d bytes, want %d", i, len(got[i]), len(want[i]))
		}
	}

	n := 0
	ScanLines(bytes.NewReader(in.Bytes()), func([]byte) bool { n++; return n < 3 })
	if n != 3 {
		t.Errorf("%d lines read after fn returned false at the third", n)
	}
}

// ReadOnHeads hands over only the head of a long line it accepts, whatever
// the line's length, and only once the line has ended; a long line it
// refuses is read whole, or skipped past the limit, as ReadOn does.
func TestReadOnHeads(t *testing.T) {
	const buf = 256 << 10
	cutMe := "CUT" + strings.Repeat("c", 3*buf)
	keep := "KEEP" + strings.Repeat("k", buf)
	overLimit := "CUT" + strings.Repeat("o", 5*buf)
	p := filepath.Join(t.TempDir(), "f.jsonl")
	whole := "one\n" + cutMe + "\n" + keep + "\n" + overLimit + "\n" + "two\n"
	os.WriteFile(p, []byte(whole+"CUT"+strings.Repeat("w", buf)), 0o644)
	head := func(prefix []byte) Head { return Head{Cut: strings.HasPrefix(string(prefix), "CUT")} }
	var got []string
	off, err := ReadOnHeads(p, 0, 2*buf, head, func(line []byte) { got = append(got, string(line)) })
	if err != nil || off != int64(len(whole)) {
		t.Fatalf("offset %d, %v; want %d (the unended last line left)", off, err, len(whole))
	}
	want := []string{"one", cutMe[:buf], keep, overLimit[:buf], "two"}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %d bytes %.10q, want %d bytes %.10q", i, len(got[i]), got[i], len(want[i]), want[i])
		}
	}
	got = nil
	// Without heads, both long lines are over the limit.
	if _, err := ReadOn(p, 0, 2*buf, func(line []byte) { got = append(got, string(line)) }); err != nil ||
		len(got) != 3 || got[0] != "one" || got[1] != keep || got[2] != "two" {
		t.Errorf("ReadOn: %d lines, %v", len(got), err)
	}
}

// A cut line is read whole after all when what its Head names occurs in
// its rest: in the middle of a piece, across the join of two pieces, or
// not at all; past the limit, it is skipped as ReadOn skips it.
func TestReadOnHeadsUnless(t *testing.T) {
	const buf = 256 << 10
	head := func(prefix []byte) Head {
		return Head{Cut: strings.HasPrefix(string(prefix), "CUT"), Unless: []byte("<TEXT>")}
	}
	quiet := "CUT" + strings.Repeat("a", 2*buf)
	middle := "CUT" + strings.Repeat("b", buf) + "<TEXT>" + strings.Repeat("b", buf)
	// The marker split by the join of the second piece and the last.
	joinedEnd := "CUT" + strings.Repeat("c", 2*buf-3-3) + "<TEXT>"
	over := "CUT" + strings.Repeat("d", 3*buf) + "<TEXT>"
	lines := []string{quiet, middle, "short", joinedEnd, over, "last"}
	p := filepath.Join(t.TempDir(), "f.jsonl")
	os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	var got []string
	if _, err := ReadOnHeads(p, 0, 2*buf+64, head, func(line []byte) { got = append(got, string(line)) }); err != nil {
		t.Fatal(err)
	}
	want := []string{quiet[:buf], middle, "short", joinedEnd, "last"}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %d bytes, want %d", i, len(got[i]), len(want[i]))
		}
	}
	// The marker split over the first join only.
	first := "CUT" + strings.Repeat("e", buf-3-2) + "<T" + "EXT>" + strings.Repeat("e", buf)
	os.WriteFile(p, []byte(first+"\n"), 0o644)
	got = nil
	ReadOnHeads(p, 0, 4*buf, head, func(line []byte) { got = append(got, string(line)) })
	if len(got) != 1 || got[0] != first {
		t.Errorf("a marker across the head's end: %d lines", len(got))
	}
}

// ScanHeads stops where fn says, and at its limit, which a single long
// line read past counts toward as it goes.
func TestScanHeads(t *testing.T) {
	const buf = 256 << 10
	head := func(prefix []byte) Head { return Head{Cut: strings.HasPrefix(string(prefix), "CUT")} }
	long := "CUT" + strings.Repeat("x", 8*buf)
	p := filepath.Join(t.TempDir(), "f.jsonl")
	os.WriteFile(p, []byte("one\ntwo\n"+long+"\nthree\n"), 0o644)
	scan := func(limit int64, stop string) []string {
		var got []string
		if err := ScanHeads(p, MaxLine, limit, head, func(line []byte) bool {
			got = append(got, string(line[:min(len(line), 5)]))
			return string(line) != stop
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := scan(0, ""); strings.Join(got, ",") != "one,two,CUTxx,three" {
		t.Errorf("no limit: %q", got)
	}
	if got := scan(0, "two"); strings.Join(got, ",") != "one,two" {
		t.Errorf("stopped at two: %q", got)
	}
	if got := scan(3*buf, ""); strings.Join(got, ",") != "one,two" {
		t.Errorf("limit inside the long line: %q", got)
	}
	if got := scan(3, ""); strings.Join(got, ",") != "one" {
		t.Errorf("limit after the first line: %q", got)
	}
}

package harness

import (
	"bytes"
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

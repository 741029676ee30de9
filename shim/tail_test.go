package shim

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestTailKeepsLastBytes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int
		writes []string
	}{
		{"empty", 4, nil},
		{"under", 4, []string{"ab"}},
		{"exact", 4, []string{"abcd"}},
		{"wrap", 4, []string{"abc", "def"}},
		{"wrap to start", 4, []string{"ab", "cd", "ef", "gh"}},
		{"one big write", 4, []string{"x", "abcdefghij"}},
		{"many small", 3, []string{"a", "b", "c", "d", "e"}},
		{"empty writes", 3, []string{"", "ab", "", "cd", ""}},
		{"size one", 1, []string{"abc", "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tail := NewTail(tc.size)
			var all []byte
			for _, w := range tc.writes {
				n, err := tail.Write([]byte(w))
				if n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
				all = append(all, w...)
			}
			if got, want := tail.Bytes(), lastN(all, tc.size); !bytes.Equal(got, want) {
				t.Errorf("Bytes() = %q, want %q", got, want)
			}
			if tail.Total() != int64(len(all)) {
				t.Errorf("Total() = %d, want %d", tail.Total(), len(all))
			}
		})
	}
}

func TestTailRandomWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		size := 1 + r.IntN(300)
		tail := NewTail(size)
		data := pattern(r.IntN(2000))
		for rest := data; len(rest) > 0; {
			k := min(len(rest), r.IntN(2*size+2))
			tail.Write(rest[:k])
			rest = rest[k:]
		}
		if got := tail.Bytes(); !bytes.Equal(got, lastN(data, size)) {
			t.Fatalf("size %d, %d bytes written: tail differs", size, len(data))
		}
	}
}

func TestTailBytesIsACopy(t *testing.T) {
	tail := NewTail(4)
	tail.Write([]byte("abcd"))
	b := tail.Bytes()
	b[0] = 'z'
	if got := tail.Bytes(); string(got) != "abcd" {
		t.Errorf("Bytes() = %q after changing an earlier result", got)
	}
}

func TestTailWriteAllocatesNothing(t *testing.T) {
	tail := NewTail(DefaultTailSize)
	p := pattern(40 << 10)
	if n := testing.AllocsPerRun(100, func() { tail.Write(p) }); n != 0 {
		t.Errorf("Write allocates %v times", n)
	}
	var nilTail *Tail
	if n, err := nilTail.Write(p); n != len(p) || err != nil {
		t.Errorf("nil Tail Write = %d, %v", n, err)
	}
}

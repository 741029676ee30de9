package safe

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestSum256KnownAnswers(t *testing.T) {
	// FIPS 180-4 examples, plus the padding edges: 55 bytes fit one
	// block with the length, 56 need a second, 64 fill a block exactly.
	cases := map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	}
	for in, want := range cases {
		got := Sum256([]byte(in))
		if hex.EncodeToString(got[:]) != want {
			t.Errorf("Sum256(%q) = %x, want %s", in, got, want)
		}
	}
	for n := range 200 {
		in := bytes.Repeat([]byte{byte(n)}, n)
		if got, want := Sum256(in), sha256.Sum256(in); got != want {
			t.Errorf("Sum256 of %d bytes = %x, want %x", n, got, want)
		}
	}
}

// PathKey names files already on users' disks: it must stay the first half
// of the SHA-256 in hex.
func TestPathKeyStable(t *testing.T) {
	for _, p := range []string{"/", "/home/ana/src/app", "/tmp/a b/ü", string(bytes.Repeat([]byte("x"), 4096))} {
		sum := sha256.Sum256([]byte(p))
		if got, want := PathKey(p), hex.EncodeToString(sum[:16]); got != want {
			t.Errorf("PathKey(%q) = %s, want %s", p, got, want)
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte(""))
	f.Add(bytes.Repeat([]byte("a"), 55))
	f.Add(bytes.Repeat([]byte("b"), 56))
	f.Add(bytes.Repeat([]byte("c"), 64))
	f.Add(bytes.Repeat([]byte("d"), 119))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("Sum256(%x) = %x, want %x", data, got, want)
		}
	})
}

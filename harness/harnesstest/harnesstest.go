// Package harnesstest is what the tests of harness and of the agents'
// packages share to build the stores they read: IDs, files and JSON
// lines. Only tests import it.
package harnesstest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// IDs the tests name: any valid UUID, another one, and the one a test's
// Run pins.
const (
	UID    = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"
	Other  = "2a2b2c2d-3e3f-4a4b-8c5d-6e6f6a6b6c6d"
	Pinned = "11111111-2222-4333-8444-555555555555"
)

// V7At returns a random version 7 UUID stamped with t, as Codex makes them.
func V7At(t time.Time) string {
	var b [16]byte
	rand.Read(b[:])
	ms := uint64(t.UnixMilli())
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// UUID returns a random version 4 UUID.
func UUID(t testing.TB) string {
	t.Helper()
	return safe.NewUUID()
}

// WriteFile writes data to the file at path, making its folders.
func WriteFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// JSONLine is v as one line of JSON, with its newline.
func JSONLine(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// AppendFile appends data to the file at path.
func AppendFile(t testing.TB, path, data string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

// Age sets a path's modification time to d ago.
func Age(t testing.TB, path string, d time.Duration) {
	t.Helper()
	when := time.Now().Add(-d)
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

// IDs lists the ID field of each element of list, a slice of structs
// (harness.Found), in order.
func IDs(list any) []string {
	out := []string{}
	v := reflect.ValueOf(list)
	for i := range v.Len() {
		out = append(out, v.Index(i).FieldByName("ID").String())
	}
	return out
}

// CutPoints are where to cut a file of lines in two: at its ends, around
// each newline, and in the middle of each line.
func CutPoints(data []byte) []int {
	cuts := []int{0, len(data)}
	start := 0
	for i, b := range data {
		if b == '\n' {
			cuts = append(cuts, (start+i)/2, i, i+1)
			start = i + 1
		}
	}
	return cuts
}

// AppendLines appends whole lines to the file at p.
func AppendLines(t testing.TB, p string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		f.WriteString(l + "\n")
	}
}

package index

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/store"
)

// sameRecord compares two records field by field, times by their instant
// and their offset's name as RFC 3339 writes them.
func sameRecord(a, b store.Record) bool {
	at := func(t *time.Time) string {
		if t == nil {
			return "nil"
		}
		return t.Format(time.RFC3339Nano)
	}
	if at(&a.Started) != at(&b.Started) || at(&a.Updated) != at(&b.Updated) || at(a.Ended) != at(b.Ended) || at(a.Active) != at(b.Active) {
		return false
	}
	a.Started, a.Updated, a.Ended, a.Active = time.Time{}, time.Time{}, nil, nil
	b.Started, b.Updated, b.Ended, b.Active = time.Time{}, time.Time{}, nil, nil
	return reflect.DeepEqual(a, b)
}

// randomRecord is a record of odd values where they can be odd: quotes,
// escapes, controls, non-ASCII, empty and missing lists, nil times.
func randomRecord(r *rand.Rand) store.Record {
	words := []string{"", "claude", `a "quoted" \ back`, "tab\there\nline", "日本語 ü", "<&> \u2028", "\x00\x1f\x7f", "ok"}
	str := func() string { return words[r.IntN(len(words))] + words[r.IntN(len(words))] }
	strs := func() []string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		return []string{str(), str()}
	}
	when := func() time.Time {
		t := time.Unix(r.Int64N(4e9), r.Int64N(1e9))
		if r.IntN(2) == 0 {
			return t.UTC()
		}
		return t.In(time.FixedZone("", (r.IntN(27)-13)*3600))
	}
	rec := store.Record{Tool: str(), ID: str(), Cwd: str(), Command: str(), Program: str(), Source: str(),
		Started: when(), Resumable: r.IntN(2) == 0, Home: str(), Title: str(), Updated: when(),
		Options: strs(), Version: str(), Evidence: strs(), Disagreed: strs()}
	if r.IntN(2) == 0 {
		t := when()
		rec.Ended = &t
	}
	if r.IntN(2) == 0 {
		t := when()
		rec.Active = &t
	}
	if r.IntN(2) == 0 {
		n := r.IntN(512) - 256
		rec.Exit = &n
	}
	return rec
}

// TestDecodeRecordAsJSON: every record json.Marshal writes (as the index
// stores them) is read as encoding/json reads it, without falling back.
func TestDecodeRecordAsJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		rec := randomRecord(r)
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var want store.Record
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := decodeRecord(string(data))
		if !ok || !sameRecord(got, want) {
			t.Fatalf("decodeRecord(%s) = %+v, %v; want %+v", data, got, ok, want)
		}
	}
}

// FuzzDecodeRecord: whatever decodeRecord reads, encoding/json reads the
// same; what it refuses is left to encoding/json.
func FuzzDecodeRecord(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		data, _ := json.Marshal(randomRecord(r))
		f.Add(string(data))
	}
	for _, s := range []string{`{}`, `{"tool":"a","tool":"b"}`, `{"Tool":"x"}`, `{"exit":007}`, `{"exit":1.0}`,
		`{"started":"2026-01-02T03:04:05\u002e5Z"}`, `{"title":"\ud800"}`, `{"title":"\ud83d\ude00"}`, ` {}`, `{"options":[]}`,
		`{"resumable":null}`, `{"ended":null,"exit":-0}`, "{\"title\":\"\xff\"}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := decodeRecord(s)
		if !ok {
			return
		}
		var want store.Record
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("decodeRecord read %q, which encoding/json refuses: %v", s, err)
		}
		if !sameRecord(got, want) {
			t.Fatalf("decodeRecord(%q) = %+v, encoding/json %+v", s, got, want)
		}
	})
}

func BenchmarkDecodeRecord(b *testing.B) {
	data, _ := json.Marshal(randomRecord(rand.New(rand.NewPCG(5, 6))))
	b.Run("decodeRecord", func(b *testing.B) {
		for b.Loop() {
			decodeRecord(string(data))
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			var r store.Record
			json.Unmarshal(data, &r)
		}
	})
}

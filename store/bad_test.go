package store

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/google/go-cmp/cmp"
)

// hostileN numbers the conversation each bad-data case plants.
const hostileN = 50

var hostileKey = "anchor-" + testID(hostileN)

// recordJSON returns the fields of a valid stored record for n in cwd, for a
// case to spoil.
func recordJSON(t *testing.T, n int, cwd string) map[string]any {
	t.Helper()
	r := normalize(rec("anchor", n, cwd))
	r.Updated = at(n)
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// plantFile writes a file under records/ and a marker for it in cwd's index,
// as a damaged or hostile store would hold them.
func plantFile(t *testing.T, s *Store, cwd, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(s.dir, "records", name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	plantMarker(t, s, cwd, strings.TrimSuffix(name, ".json"))
	return p
}

func plantMarker(t *testing.T, s *Store, cwd, name string) {
	t.Helper()
	dir := filepath.Join(s.dir, "dirs", safe.PathKey(cwd))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// spoiled returns a case that plants a valid record with its fields edited.
func spoiled(edit func(m map[string]any)) func(*testing.T, *Store, string) {
	return func(t *testing.T, s *Store, cwd string) {
		m := recordJSON(t, hostileN, cwd)
		edit(m)
		plantFile(t, s, cwd, hostileKey+".json", encode(t, m))
	}
}

func raw(data []byte) func(*testing.T, *Store, string) {
	return func(t *testing.T, s *Store, cwd string) {
		plantFile(t, s, cwd, hostileKey+".json", data)
	}
}

func TestBadData(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, s *Store, cwd string)
		// warnings expected from one Dir and one All; both 1 unless set.
		dirWarn, allWarn *int
	}{
		{name: "empty file", plant: raw(nil)},
		{name: "truncated", plant: func(t *testing.T, s *Store, cwd string) {
			data := encode(t, recordJSON(t, hostileN, cwd))
			raw(data[:len(data)/2])(t, s, cwd)
		}},
		{name: "garbage", plant: raw([]byte("\x00\xff\xfe garbage {{{"))},
		{name: "json null", plant: raw([]byte("null"))},
		{name: "json array", plant: raw([]byte("[1,2,3]"))},
		{name: "wrong field types", plant: spoiled(func(m map[string]any) { m["started"] = 12 })},
		{name: "id not a uuid", plant: spoiled(func(m map[string]any) { m["id"] = "../../etc/passwd" })},
		{name: "uppercase id", plant: spoiled(func(m map[string]any) { m["id"] = strings.ToUpper(testID(0xabc)) })},
		{name: "name holds another id", plant: spoiled(func(m map[string]any) { m["id"] = testID(51) })},
		{name: "name holds another tool", plant: spoiled(func(m map[string]any) { m["tool"] = "bravo" })},
		{name: "unknown tool", plant: spoiled(func(m map[string]any) { m["tool"] = "vim" })},
		{name: "dotdot in cwd", plant: spoiled(func(m map[string]any) { m["cwd"] = m["cwd"].(string) + "/../x" })},
		{name: "relative cwd", plant: spoiled(func(m map[string]any) { m["cwd"] = "work/x" })},
		{name: "empty cwd", plant: spoiled(func(m map[string]any) { m["cwd"] = "" })},
		{name: "NUL in cwd", plant: spoiled(func(m map[string]any) { m["cwd"] = m["cwd"].(string) + "\x00x" })},
		{name: "relative home", plant: spoiled(func(m map[string]any) { m["home"] = ".anchor" })},
		{name: "dotdot in home", plant: spoiled(func(m map[string]any) { m["home"] = "/home/u/../../root" })},
		{name: "NUL in home", plant: spoiled(func(m map[string]any) { m["home"] = "/home/u\x00" })},
		{name: "control in program", plant: spoiled(func(m map[string]any) { m["program"] = "anchor\n" })},
		{name: "program is another tool", plant: spoiled(func(m map[string]any) { m["program"] = "/usr/bin/bravo" })},
		{name: "program is a shell", plant: spoiled(func(m map[string]any) { m["program"] = "/bin/sh" })},
		{name: "program with shell syntax", plant: spoiled(func(m map[string]any) { m["program"] = "/tmp/$(id)/anchor" })},
		{name: "program with a space", plant: spoiled(func(m map[string]any) { m["program"] = "/opt/a b/anchor" })},
		{name: "unknown source", plant: spoiled(func(m map[string]any) { m["source"] = "evil" })},
		{name: "control in option", plant: spoiled(func(m map[string]any) { m["options"] = []string{"--a\x07"} })},
		{name: "symlink", plant: func(t *testing.T, s *Store, cwd string) {
			target := filepath.Join(t.TempDir(), "elsewhere.json")
			if err := os.WriteFile(target, encode(t, recordJSON(t, hostileN, cwd)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(s.dir, "records", hostileKey+".json")); err != nil {
				t.Fatal(err)
			}
			plantMarker(t, s, cwd, hostileKey)
		}},
		{name: "fifo", plant: func(t *testing.T, s *Store, cwd string) {
			if err := syscall.Mkfifo(filepath.Join(s.dir, "records", hostileKey+".json"), 0o600); err != nil {
				t.Fatal(err)
			}
			plantMarker(t, s, cwd, hostileKey)
		}},
		{name: "directory", plant: func(t *testing.T, s *Store, cwd string) {
			if err := os.Mkdir(filepath.Join(s.dir, "records", hostileKey+".json"), 0o700); err != nil {
				t.Fatal(err)
			}
			plantMarker(t, s, cwd, hostileKey)
		}},
		{name: "valid record padded past the cap", plant: func(t *testing.T, s *Store, cwd string) {
			data := encode(t, recordJSON(t, hostileN, cwd))
			raw(append(data, bytes.Repeat([]byte(" "), maxRecordSize)...))(t, s, cwd)
		}},
		{name: "huge sparse file", plant: func(t *testing.T, s *Store, cwd string) {
			// 16 GiB: reading it whole would not finish, let alone fit.
			p := plantFile(t, s, cwd, hostileKey+".json", nil)
			if err := os.Truncate(p, 16<<30); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "record file with an unknown tool name", plant: func(t *testing.T, s *Store, cwd string) {
			m := recordJSON(t, hostileN, cwd)
			m["tool"] = "vim"
			plantFile(t, s, cwd, "vim-"+testID(hostileN)+".json", encode(t, m))
		}},
		{name: "record file with a bad name", plant: func(t *testing.T, s *Store, cwd string) {
			plantFile(t, s, cwd, "anchor-not-a-uuid.json", encode(t, recordJSON(t, hostileN, cwd)))
		}},
		{name: "stray file in records", allWarn: ptr(1), dirWarn: ptr(0), plant: func(t *testing.T, s *Store, cwd string) {
			if err := os.WriteFile(filepath.Join(s.dir, "records", "notes.txt"), []byte("hi"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "bad index entry", allWarn: ptr(0), dirWarn: ptr(1), plant: func(t *testing.T, s *Store, cwd string) {
			plantMarker(t, s, cwd, "anchor-$(reboot)")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, w := openTest(t)
			cwd := physicalTempDir(t)
			want := []string{"bravo-" + testID(2), "anchor-" + testID(1)}
			mustPut(t, s, rec("anchor", 1, cwd))
			mustPut(t, s, rec("bravo", 2, cwd))
			tt.plant(t, s, cwd)

			check := func(op string, got []Record, err error, warn *int) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s: %v", op, err)
				}
				if d := cmp.Diff(want, ids(got)); d != "" {
					t.Errorf("%s (-want +got):\n%s", op, d)
				}
				n := 1
				if warn != nil {
					n = *warn
				}
				if m := w.take(); len(m) != n {
					t.Errorf("%s: %d warnings, want %d: %q", op, len(m), n, m)
				}
			}
			start := time.Now()
			got, err := s.Dir(cwd)
			check("Dir", got, err, tt.dirWarn)
			got, err = s.All()
			check("All", got, err, tt.allWarn)
			got, err = s.Dir(cwd) // again: one warning per operation, every time
			check("Dir again", got, err, tt.dirWarn)
			if d := time.Since(start); d > time.Minute {
				t.Errorf("reading took %v", d) // only a hang or a whole read gets here
			}

			if _, ok, err := s.Get("anchor", testID(hostileN)); ok || err != nil {
				t.Errorf("Get of the hostile record = %v, %v", ok, err)
			}
			w.take()
			if found, err := s.Find(testID(hostileN)); err != nil || len(found) != 0 {
				t.Errorf("Find of the hostile record = %v, %v", ids(found), err)
			}
			w.take()
		})
	}
}

func TestPutOverDamage(t *testing.T) {
	s, w := openTest(t)
	cwd := physicalTempDir(t)
	raw([]byte("{broken"))(t, s, cwd)
	got := mustPut(t, s, rec("anchor", hostileN, cwd))
	if m := w.take(); len(m) != 1 {
		t.Errorf("Put over a damaged record: %d warnings, want 1: %q", len(m), m)
	}
	if all, _ := s.Dir(cwd); len(all) != 1 || all[0].Updated != got.Updated {
		t.Errorf("Dir after repair = %+v", all)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings after repair: %q", m)
	}
}

func TestReadRebuildsAndStrips(t *testing.T) {
	s, w := openTest(t)
	cwd := physicalTempDir(t)
	m := recordJSON(t, hostileN, cwd)
	m["resume"] = "anchor --resume x; rm -rf ~"
	m["title"] = "\x1b]0;pwned\x07hello\u009b"
	m["command"] = "anchor\r\x1b[1A"
	m["updated"] = "2025-03-01T14:00:00+02:00"
	plantFile(t, s, cwd, hostileKey+".json", encode(t, m))
	got, err := s.Dir(cwd)
	if err != nil || len(got) != 1 {
		t.Fatalf("Dir = %v, %v", got, err)
	}
	r := got[0]
	if r.Title != "]0;pwnedhello" || r.Command != "anchor[1A" {
		t.Errorf("Title %q Command %q", r.Title, r.Command)
	}
	if want := at(0); !r.Updated.Equal(want) || r.Updated.Location() != time.UTC {
		t.Errorf("Updated = %v", r.Updated)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

func TestIgnoredQuietly(t *testing.T) {
	s, w := openTest(t)
	cwd, other := physicalTempDir(t), physicalTempDir(t)
	mustPut(t, s, rec("anchor", 1, cwd))
	mustPut(t, s, rec("bravo", 2, other))

	records := filepath.Join(s.dir, "records")
	young := filepath.Join(records, tempPrefix+"young")
	old := filepath.Join(records, tempPrefix+"old")
	for _, p := range []string{young, old} {
		if err := os.WriteFile(p, []byte("{half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hour := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, hour, hour); err != nil {
		t.Fatal(err)
	}
	plantMarker(t, s, cwd, "echo-"+testID(3))     // crash between marker and record
	plantMarker(t, s, cwd, "bravo-"+testID(2))    // a record of another directory
	plantMarker(t, s, other, "anchor-"+testID(1)) // and the other way round

	for _, q := range []struct {
		dir  string
		want string
	}{{cwd, "anchor-" + testID(1)}, {other, "bravo-" + testID(2)}} {
		got, err := s.Dir(q.dir)
		if err != nil || len(got) != 1 || ids(got)[0] != q.want {
			t.Errorf("Dir = %v, %v; want %s", ids(got), err, q.want)
		}
	}
	if all, err := s.All(); err != nil || len(all) != 2 {
		t.Errorf("All = %v, %v", ids(all), err)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
	if _, err := os.Lstat(young); err != nil {
		t.Errorf("a young temp file was removed: %v", err)
	}
	if _, err := os.Lstat(old); err == nil {
		t.Error("a stale temp file was kept")
	}
}

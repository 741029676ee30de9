package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// temps lists the temp files of a store's records folder.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "records"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			out = append(out, filepath.Join(dir, "records", e.Name()))
		}
	}
	return out
}

// A run longer than staleTemp: the temp file its shim warmed at the start
// is older than any write could last, yet a full scan from another process
// leaves it, because its writer still holds it, and the end of the run is
// written into it.
func TestWarmedTempOutlivesSweep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	writer, _ := openAt(t, dir)
	cwd := physicalTempDir(t)
	mustPut(t, writer, rec("anchor", 1, cwd))
	if err := writer.Warm(); err != nil {
		t.Fatal(err)
	}
	warmed := temps(t, dir)
	if len(warmed) != 1 {
		t.Fatalf("temp files after Warm: %q", warmed)
	}
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(warmed[0], long, long); err != nil {
		t.Fatal(err)
	}
	reader, w := openAt(t, dir)
	if all, err := reader.All(); err != nil || len(all) != 1 {
		t.Fatalf("All = %v, %v", ids(all), err)
	}
	if _, err := os.Lstat(warmed[0]); err != nil {
		t.Fatalf("the sweep removed a live writer's temp file: %v", err)
	}
	end := rec("anchor", 1, cwd)
	end.Ended, end.Exit, end.Title = ptr(at(90)), ptr(0), "the last word"
	if _, err := writer.Put(end); err != nil {
		t.Fatalf("the end of the run was not written: %v", err)
	}
	got, ok, err := reader.Get("anchor", testID(1))
	if err != nil || !ok || got.Ended == nil || got.Title != "the last word" {
		t.Fatalf("record after the run = %+v, %v, %v", got, ok, err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temp files left: %q", left)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

// Once its writer is gone (the kernel drops the lock with the descriptor),
// an old temp file is a killed writer's, and the sweep removes it.
func TestSweepTakesAbandonedWarmedTemp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	writer, _ := openAt(t, dir)
	if err := writer.Warm(); err != nil {
		t.Fatal(err)
	}
	warmed := temps(t, dir)
	writer.spare.Close() // as its process dying would
	writer.spare = nil
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(warmed[0], long, long); err != nil {
		t.Fatal(err)
	}
	reader, _ := openAt(t, dir)
	if _, err := reader.All(); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("an abandoned temp file was kept: %q", left)
	}
}

// A warmed temp file that vanished anyway (removed by hand, or by an
// older fleetcom's sweep) costs the write a new temp file, never the
// record.
func TestWriteSurvivesVanishedTemp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, w := openAt(t, dir)
	cwd := physicalTempDir(t)
	if err := s.Warm(); err != nil {
		t.Fatal(err)
	}
	for _, p := range temps(t, dir) {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	r := rec("anchor", 2, cwd)
	r.Ended, r.Exit = ptr(at(50)), ptr(0)
	if _, err := s.Put(r); err != nil {
		t.Fatalf("Put after the warmed file vanished: %v", err)
	}
	got, ok, err := s.Get("anchor", testID(2))
	if err != nil || !ok || got.Ended == nil {
		t.Fatalf("record = %+v, %v, %v", got, ok, err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temp files left: %q", left)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

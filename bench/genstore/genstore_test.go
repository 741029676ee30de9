package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

func TestMain(m *testing.M) {
	progress = io.Discard
	poolSize = 1 << 20
	os.Exit(m.Run())
}

// small is a store with every agent in it, quick to write.
func small(t *testing.T, root string) opts {
	t.Helper()
	o := opts{root: root, seed: 7, end: time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC), span: 90 * 24 * time.Hour,
		dirs: 3, claude: 24, claudeDirs: 2, claudeKB: 20, sidechain: 1, sidechainMB: 1, sidechainLines: 400, records: true,
		codex: 12, codexKB: 20, codexBigMB: 1, codexNames: 30, gemini: 8, geminiKB: 20, grok: 5, copilot: 5}
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("genstore writes a database with the sqlite3 program, which is not on PATH")
	}
	o.opencode, o.opencodeMessages = 6, 60
	if err := generate(o); err != nil {
		t.Fatal(err)
	}
	return o
}

// manifest reads manifest.tsv: one map per conversation.
func manifest(t *testing.T, root string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	head := strings.Split(lines[0], "\t")
	var out []map[string]string
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		m := map[string]string{}
		for i, h := range head {
			m[h] = f[i]
		}
		out = append(out, m)
	}
	return out
}

// TestFleetcomFindsEveryConversation: what genstore writes is what
// fleetcom's own readers find, per agent and directory, with the first
// prompt as the title where the agent has no title of its own.
func TestFleetcomFindsEveryConversation(t *testing.T) {
	root := t.TempDir()
	o := small(t, root)
	convs := manifest(t, root)
	want := map[string][]string{} // tool and dir -> ids
	homes := map[string]string{}
	for _, c := range convs {
		k := c["tool"] + " " + c["dir"]
		want[k] = append(want[k], c["id"])
		homes[c["tool"]] = c["home"]
	}
	for _, tool := range agents.Names() {
		home, ok := homes[tool]
		if !ok {
			t.Errorf("%s: nothing written (no sqlite3 for a database?)", tool)
			continue
		}
		a, _ := agents.Named(tool)
		for d := range o.dirs {
			dir := filepath.Join(root, "work", fmt.Sprintf("project-%04d", d))
			found, err := a.Discover(home, dir, "")
			if err != nil {
				t.Fatalf("%s: discover %s: %v", tool, dir, err)
			}
			var ids []string
			for _, f := range found {
				ids = append(ids, f.ID)
				if f.Title == "" {
					t.Errorf("%s %s: no title", tool, f.ID)
				}
			}
			exp := want[tool+" "+dir]
			slices.Sort(ids)
			slices.Sort(exp)
			if !slices.Equal(ids, exp) {
				t.Errorf("%s in %s: found %d %v, wrote %d %v", tool, dir, len(ids), ids, len(exp), exp)
			}
		}
	}
	for _, c := range convs {
		a, _ := agents.Named(c["tool"])
		f, err := a.Lookup(c["home"], c["id"])
		if err != nil || f.Cwd != c["dir"] {
			t.Errorf("%s %s: looked up in %s (%v), manifest: %s", c["tool"], c["id"], f.Cwd, err, c["dir"])
		}
	}
	st, err := store.Open(filepath.Join(root, "state", "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.All()
	if err != nil || len(recs) != len(convs) {
		t.Errorf("records: %d (%v), conversations %d", len(recs), err, len(convs))
	}
}

// TestLinesAreCompactJSON: every line of every JSON Lines file parses, and
// is written compact, as the CLIs write them.
func TestLinesAreCompactJSON(t *testing.T) {
	root := t.TempDir()
	small(t, root)
	n := 0
	err := filepath.WalkDir(filepath.Join(root, "home"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			n++
			var v any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatalf("%s: %v: %.200s", p, err, sc.Bytes())
			}
			var c bytes.Buffer
			if err := json.Compact(&c, sc.Bytes()); err != nil || c.Len() != len(sc.Bytes()) {
				t.Fatalf("%s: not compact: %.200s", p, sc.Bytes())
			}
		}
		return sc.Err()
	})
	if err != nil || n == 0 {
		t.Fatalf("walk: %v, %d lines", err, n)
	}
}

// TestMarkers: a marker word is in the files of exactly the conversations
// markers.tsv names.
func TestMarkers(t *testing.T) {
	root := t.TempDir()
	small(t, root)
	planted := map[string]bool{}
	data, _ := os.ReadFile(filepath.Join(root, "markers.tsv"))
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		f := strings.Split(l, "\t")
		planted[f[0]+" "+f[2]] = true
	}
	if len(planted) == 0 {
		t.Fatal("no marker planted")
	}
	for _, c := range manifest(t, root) {
		if strings.HasSuffix(c["path"], ".db") {
			continue // one database for all
		}
		var text []byte
		filepath.WalkDir(c["path"], func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				text = append(text, b...)
			}
			return nil
		})
		for _, m := range markers {
			if got, want := bytes.Contains(text, []byte(m)), planted[m+" "+c["id"]]; got != want {
				t.Errorf("%s %s: marker %s in its files: %v, in markers.tsv: %v", c["tool"], c["id"], m, got, want)
			}
		}
	}
}

// TestSameSeedSameBytes: the same flags write the same files, dated alike.
func TestSameSeedSameBytes(t *testing.T) {
	root := filepath.Join(t.TempDir(), "w")
	sum := func() string {
		h := sha256.New()
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			// The store's changes journal lists the records in the order
			// genstore's writers happened to write them.
			if err != nil || d.IsDir() || strings.Contains(d.Name(), ".db") || strings.Contains(p, "/locks/") || d.Name() == "changes" {
				return err
			}
			b, _ := os.ReadFile(p)
			fi, _ := d.Info()
			mtime := fi.ModTime().UnixNano()
			if !strings.Contains(p, "/home/") {
				mtime = 0 // fleetcom's records and the lists are dated now
			}
			fmt.Fprintf(h, "%s %d %s\n", p, mtime, b)
			return nil
		})
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	small(t, root)
	first := sum()
	os.RemoveAll(root)
	small(t, root)
	if second := sum(); second != first {
		t.Error("two runs with the same seed wrote different stores")
	}
}

// TestFoldersDatedAsTheirFiles: no folder of the agents' stores is newer
// than the newest conversation, as none would be on a user's disk: a
// folder changes when a conversation starts in it.
func TestFoldersDatedAsTheirFiles(t *testing.T) {
	root := t.TempDir()
	o := small(t, root)
	n := 0
	filepath.WalkDir(filepath.Join(root, "home"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		n++
		if fi.ModTime().After(o.end.Add(time.Hour)) {
			t.Errorf("%s is dated %s, after the newest conversation (%s)", p, fi.ModTime().UTC(), o.end)
		}
		return nil
	})
	if n < 5 {
		t.Errorf("only %d folders under home", n)
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// OpencodeSession is one row of opencode's session table, with its number
// of messages, as the suite reads them.
type OpencodeSession struct {
	ID        string `json:"id"`
	Directory string `json:"directory"`
	Title     string `json:"title"`
	Parent    string `json:"parent"`
	Messages  int    `json:"messages"`
}

// OpencodeSessions reads every session of the World's opencode database,
// by ID; none when there is no database yet. It reads with the sqlite3
// program, read-only, as fleetcom does.
func OpencodeSessions(t testing.TB, w *World) map[string]OpencodeSession {
	t.Helper()
	db := filepath.Join(w.Getenv("XDG_DATA_HOME"), "opencode", "opencode.db")
	if _, err := os.Stat(db); err != nil {
		return map[string]OpencodeSession{}
	}
	cmd := exec.Command("sqlite3", "-readonly", "-init", os.DevNull, "-cmd", ".timeout 5000", "-json", db,
		`SELECT s.id AS id, s.directory AS directory, s.title AS title, COALESCE(s.parent_id, '') AS parent,
		 (SELECT COUNT(*) FROM message m WHERE m.session_id = s.id) AS messages FROM session s`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sqlite3 on %s: %v", db, err)
	}
	var rows []OpencodeSession
	if len(out) > 0 {
		if err := json.Unmarshal(out, &rows); err != nil {
			t.Fatalf("sqlite3 on %s: %v\n%s", db, err, out)
		}
	}
	m := map[string]OpencodeSession{}
	for _, r := range rows {
		m[r.ID] = r
	}
	return m
}

// opencodeOf lists the sessions of dir.
func opencodeOf(sessions map[string]OpencodeSession, dir string) []OpencodeSession {
	var out []OpencodeSession
	for _, s := range sessions {
		if s.Directory == dir {
			out = append(out, s)
		}
	}
	return out
}

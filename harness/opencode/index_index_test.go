package opencode_test

import (
	"os"
	"path/filepath"
	"testing"

	agent "github.com/fleetcom/fleetcom/harness/opencode"
	"github.com/fleetcom/fleetcom/harness/readertest"
	"github.com/fleetcom/fleetcom/internal/opencodetest"
	"github.com/ncruces/go-sqlite3"
)

func TestIndexReadsOpencode(t *testing.T) {
	home := filepath.Join(t.TempDir(), "opencode")
	os.MkdirAll(home, 0o755)
	db, err := sqlite3.Open(filepath.Join(home, "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, _ := os.ReadFile(filepath.Join("testdata", "sessions.sql"))
	if err := db.Exec(opencodetest.Schema + string(rows)); err != nil {
		t.Fatal(err)
	}
	x := readertest.OpenIndex(t, agent.Agent, home)
	readertest.Refresh(t, x)
	const id = "ses_db6534f63ffeQ8756QBzHnf8bj"
	c, ok, err := x.Get("opencode", id)
	if err != nil || !ok || c.StoreCwd != "/home/me/proj a" || c.Title != "ACK HERON-12 CODES HERON-12" ||
		c.Summary != "ACK HERON-12 CODES HERON-12" || c.Turns != 3 || c.Messages != 7 {
		t.Fatalf("%+v, %v", c, err)
	}
	if got := readertest.Found(t, x, "PELICAN"); len(got) != 1 || got[0] != "ses_db65fdbf6ffebvK6cdx7G1vxiH" {
		t.Errorf("search PELICAN: %q", got)
	}
	// A new turn.
	if err := db.Exec(`INSERT INTO message VALUES ('msg_new1', '` + id + `', 1796533000000, 1796533000000, '{"role":"user","time":{"created":1796533000000}}');
		INSERT INTO part VALUES ('prt_new1', 'msg_new1', '` + id + `', 1796533000001, 1796533000001, '{"type":"text","text":"find the OSPREY nest"}');
		INSERT INTO message VALUES ('msg_new2', '` + id + `', 1796533000002, 1796533000100, '{"role":"assistant","time":{"created":1796533000002,"completed":1796533000100}}');
		INSERT INTO part VALUES ('prt_new2', 'msg_new2', '` + id + `', 1796533000003, 1796533000050, '{"type":"text","text":"It is on the cliff","time":{"start":1796533000003,"end":1796533000050}}');
		UPDATE session SET time_updated = 1796533000200 WHERE id = '` + id + `'`); err != nil {
		t.Fatal(err)
	}
	readertest.Refresh(t, x)
	if c, _, _ = x.Get("opencode", id); c.Turns != 4 || c.Messages != 9 || c.Title != "ACK HERON-12 CODES HERON-12" {
		t.Errorf("after a turn: %+v", c)
	}
	if got := readertest.Found(t, x, "cliff"); len(got) != 1 || got[0] != id {
		t.Errorf("search cliff: %q", got)
	}
	// A session deleted in opencode is gone.
	if err := db.Exec(`DELETE FROM part WHERE session_id = '` + id + `'; DELETE FROM message WHERE session_id = '` + id + `';
		DELETE FROM session WHERE id = '` + id + `'`); err != nil {
		t.Fatal(err)
	}
	readertest.Refresh(t, x)
	if c, ok, _ = x.Get("opencode", id); ok && c.Stored {
		t.Errorf("a deleted session: %+v", c)
	}
	if got := readertest.Found(t, x, "cliff"); len(got) != 0 {
		t.Errorf("search cliff after the delete: %q", got)
	}
}

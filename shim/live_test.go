package shim

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// liveAgent pins an ID and reads it back from its Live file: an agent whose
// CLI keeps one file per project and session, set up by nothing fleetcom
// injects.
type liveAgent struct{ id string }

func (l liveAgent) Instrument(harness.Form, harness.Run) (harness.Instrumentation, error) {
	return harness.Instrumentation{Pinned: l.id}, nil
}
func (liveAgent) ScrapeExit([]byte) string           { return "" }
func (liveAgent) Exists(string, string, string) bool { return true }
func (liveAgent) ParseCapture(data []byte, _ harness.Capture) string {
	return string(bytes.TrimSpace(data))
}

// uuidAgent is a registered agent whose grammar takes id, a UUID: the
// store keeps records of registered agents only.
func uuidAgent(t *testing.T, id string) harness.Agent {
	t.Helper()
	for _, a := range agents.All() {
		if a.ID.Valid(id) {
			return a
		}
	}
	t.Fatal("no registered agent takes UUIDs")
	return harness.Agent{}
}

// TestLivePerProject: Spec.Live is asked, at spawn, for the run's own
// file (here one per directory and pinned session), and the run follows
// that file as its capture channel.
func TestLivePerProject(t *testing.T) {
	id := safe.NewUUID()
	registered := uuidAgent(t, id)
	dir := t.TempDir()
	t.Chdir(dir)
	cwd, err := physicalDir()
	if err != nil {
		t.Fatal(err)
	}
	var asked []harness.Capture
	spec := *registered.Spec
	spec.Live = func(c harness.Capture) string {
		asked = append(asked, c)
		return filepath.Join(c.Cwd, "live-"+c.Pinned)
	}
	a := harness.Agent{Spec: &spec, Behaviour: liveAgent{id: id}}
	tmp := t.TempDir()
	// No cache directory: the version probe, which may still run when
	// supervise returns, then writes nothing into tmp.
	o := Options{Paths: Paths{StoreDir: filepath.Join(tmp, "store"),
		Runtime: Root{Dir: filepath.Join(tmp, "run")}}}
	if err := os.Mkdir(o.Runtime.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// The child writes the conversation's ID into the file the Live
	// function named, as the CLI would.
	j := &job{a: a, form: harness.Form{Tool: a.Name, Program: a.Name}, real: "/bin/sh",
		argv: []string{a.Name, "-c", `printf '%s\n' "$1" >live-"$1"`, "sh", id}}
	st, err := supervise(j, o)
	if err != nil || st.Code != 0 {
		t.Fatalf("supervise: %+v, %v", st, err)
	}
	if len(asked) != 1 || asked[0].Cwd != cwd || asked[0].Pinned != id || asked[0].PID != 0 ||
		asked[0].Home != a.Home(os.Getenv) || asked[0].Started.IsZero() || time.Since(asked[0].Started) > time.Hour {
		t.Fatalf("Live asked with %+v; want once, at spawn, with the run's directory, home and pinned ID", asked)
	}
	s, err := store.Open(o.StoreDir, store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	rec, ok, err := s.Get(a.Name, id)
	if err != nil || !ok {
		t.Fatalf("no record of %s: %v", id, err)
	}
	if rec.Source != "capture" {
		t.Errorf("the record's source is %q, want the Live file (capture)", rec.Source)
	}
}

package harness

import (
	"errors"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// bareAgent has only what every agent must: no capture channel, no store
// fleetcom can search, nothing to move.
type bareAgent struct{}

func (bareAgent) Instrument(f Form, _ Run) (Instrumentation, error) {
	return Instrumentation{Pinned: f.Resume}, nil
}
func (bareAgent) ScrapeExit([]byte) string    { return "" }
func (bareAgent) Exists(_, _, id string) bool { return id != "" }

// TestOptionalCapabilities: an agent without a capability answers
// "nothing" through Agent, and wrote no stub for it.
func TestOptionalCapabilities(t *testing.T) {
	a := Agent{Spec: &Spec{Name: "bare", ID: &UUID, Resume: Spelling{Words: []string{"--resume"}}}, Behaviour: bareAgent{}}
	id := harnesstest.UUID(t)
	home, cwd := t.TempDir(), t.TempDir()
	if got := a.ParseCapture([]byte(`{"session_id":"`+id+`"}`+"\n"), Capture{Home: home, Cwd: cwd, PID: 1}); got != "" {
		t.Errorf("ParseCapture = %q, want nothing without a Capturer", got)
	}
	if got := a.Correlate(home, cwd, time.Now()); got != "" {
		t.Errorf("Correlate = %q", got)
	}
	if got := a.Title(home, cwd, id); got != "" {
		t.Errorf("Title = %q", got)
	}
	if got := a.Excerpt(home, cwd, id, 3, 4); got.Total != 0 || got.First != nil || got.Last != nil {
		t.Errorf("Excerpt = %+v", got)
	}
	if got := a.Holders(home, id); got != nil {
		t.Errorf("Holders = %v", got)
	}
	if found, err := a.Discover(home, cwd, ""); found != nil || err != nil {
		t.Errorf("Discover = %v, %v", found, err)
	}
	if _, err := a.Lookup(home, id); !errors.Is(err, ErrNoConversation) {
		t.Errorf("Lookup error = %v, want ErrNoConversation", err)
	}
	if err := a.Adoptable(home, cwd, id); !errors.Is(err, ErrNoConversation) {
		t.Errorf("Adoptable error = %v, want ErrNoConversation", err)
	}
	if _, ok := a.Behaviour.(Mover); ok {
		t.Error("a bare agent is a Mover")
	}
}

// fullAgent has every capability, each answering with its own name.
type fullAgent struct{ bareAgent }

func (fullAgent) ParseCapture([]byte, Capture) string        { return "capture" }
func (fullAgent) Correlate(string, string, time.Time) string { return "correlate" }
func (fullAgent) Title(string, string, string) string        { return "title" }
func (fullAgent) Holders(string, string) []int               { return []int{7} }
func (fullAgent) Discover(string, string, string) ([]Found, error) {
	return []Found{{ID: "discover"}}, nil
}
func (fullAgent) Lookup(string, string) (Found, error)   { return Found{ID: "lookup"}, nil }
func (fullAgent) Adoptable(string, string, string) error { return nil }
func (fullAgent) Excerpt(string, string, string, int, int) Excerpt {
	return Excerpt{Total: 1}
}

// TestCapabilitiesReachCallers: an agent's capabilities answer through
// Agent's methods.
func TestCapabilitiesReachCallers(t *testing.T) {
	a := Agent{Spec: &Spec{Name: "full", ID: &UUID, Resume: Spelling{Words: []string{"--resume"}}}, Behaviour: fullAgent{}}
	found, _ := a.Discover("", "", "")
	looked, _ := a.Lookup("", "")
	got := []any{a.ParseCapture(nil, Capture{}), a.Correlate("", "", time.Time{}), a.Title("", "", ""),
		a.Holders("", "")[0], a.Excerpt("", "", "", 1, 1).Total, found[0].ID, looked.ID, a.Adoptable("", "", "")}
	want := []any{"capture", "correlate", "title", 7, 1, "discover", "lookup", nil}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("capability %d answered %v, want %v", i, got[i], want[i])
		}
	}
}

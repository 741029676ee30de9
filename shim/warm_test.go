package shim

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// warmAgent is liveAgent that says when its look is read ahead.
type warmAgent struct {
	liveAgent
	mu     *sync.Mutex
	warmed *[]string
}

func (w warmAgent) Warm(home, cwd, id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	*w.warmed = append(*w.warmed, home+"|"+cwd+"|"+id)
}

// TestWarmAhead: a run that resumes a conversation and lasts past
// warmDelay has its agent read the conversation ahead, once, for the
// run's directory and home; a run that resumes nothing, or ends first,
// does not.
func TestWarmAhead(t *testing.T) {
	id := safe.NewUUID()
	registered := uuidAgent(t, id)
	t.Chdir(t.TempDir())
	cwd, err := physicalDir()
	if err != nil {
		t.Fatal(err)
	}
	saved := warmDelay
	t.Cleanup(func() { warmDelay = saved })
	var mu sync.Mutex
	var warmed []string
	a := harness.Agent{Spec: registered.Spec, Behaviour: warmAgent{liveAgent{id: id}, &mu, &warmed}}
	run := func(resume string, delay time.Duration, script string) []string {
		t.Helper()
		warmDelay = delay
		mu.Lock()
		warmed = nil
		mu.Unlock()
		tmp := t.TempDir()
		o := Options{Paths: Paths{StoreDir: filepath.Join(tmp, "store"), Runtime: Root{Dir: filepath.Join(tmp, "run")}}}
		if err := os.Mkdir(o.Runtime.Dir, 0o700); err != nil {
			t.Fatal(err)
		}
		j := &job{a: a, form: harness.Form{Tool: a.Name, Program: a.Name, Resume: resume}, real: "/bin/sh",
			argv: []string{a.Name, "-c", script}}
		if st, err := supervise(j, o); err != nil || st.Code != 0 {
			t.Fatalf("supervise: %+v, %v", st, err)
		}
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), warmed...)
	}
	want := a.Home(os.Getenv) + "|" + cwd + "|" + id
	if got := run(id, 20*time.Millisecond, "sleep 0.5"); len(got) != 1 || got[0] != want {
		t.Errorf("a resume that lasts: warmed %q, want [%q]", got, want)
	}
	if got := run("", 20*time.Millisecond, "sleep 0.5"); len(got) != 0 {
		t.Errorf("a run that resumes nothing: warmed %q", got)
	}
	if got := run(id, 5*time.Second, "true"); len(got) != 0 {
		t.Errorf("a resume that ended first: warmed %q", got)
	}
}

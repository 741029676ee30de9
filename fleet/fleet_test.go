package fleet

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/google/go-cmp/cmp"
)

const uid = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// tool and otherTool are two registered agents whose IDs are UUIDs, as uid.
var tool, otherTool = func() (string, string) {
	var names []string
	for _, a := range agents.All() {
		if a.ID.Valid(uid) {
			names = append(names, a.Name)
		}
	}
	return names[0], names[1]
}()

// display is how a notice names an agent.
func display(name string) string {
	if a, ok := agents.Named(name); ok && a.Display != "" {
		return a.Display
	}
	return name
}

func TestTrackerHooked(t *testing.T) {
	tr := NewTracker(t0, ByHooks)
	step := func(c Change, ok bool) Change {
		t.Helper()
		if !ok {
			t.Fatalf("no change from %s", tr.State)
		}
		return c
	}
	if _, ok := tr.Submitted(t0.Add(time.Second)); ok || tr.State != harness.Starting {
		t.Errorf("a hooked run followed the terminal: %s", tr.State)
	}
	c := step(tr.Quiet(t0.Add(2 * time.Second)))
	if c.To != harness.Waiting || c.Turn != 0 {
		t.Errorf("first quiet: %+v", c)
	}
	step(tr.Hook(harness.StateEvent{State: harness.Working}, t0.Add(10*time.Second)))
	if _, ok := tr.Quiet(t0.Add(20 * time.Second)); ok {
		t.Error("a hooked run's turn ended by silence")
	}
	c = step(tr.Hook(harness.StateEvent{State: harness.NeedsYou, Why: "permission request"}, t0.Add(30*time.Second)))
	if c.To != harness.NeedsYou || c.Why != "permission request" || tr.Why != "permission request" {
		t.Errorf("needs-you: %+v", c)
	}
	if _, ok := tr.Hook(harness.StateEvent{State: harness.NeedsYou, Why: "permission request"}, t0.Add(36*time.Second)); ok {
		t.Error("the same state twice is a change")
	}
	step(tr.Hook(harness.StateEvent{State: harness.Working}, t0.Add(40*time.Second)))
	c = step(tr.Hook(harness.StateEvent{State: harness.Waiting}, t0.Add(70*time.Second)))
	if c.Turn != time.Minute || tr.Since != t0.Add(70*time.Second) {
		t.Errorf("turn %v since %v", c.Turn, tr.Since)
	}
	if _, ok := tr.Hook(harness.StateEvent{State: "bogus"}, t0); ok {
		t.Error("an invalid state applied")
	}
}

func TestTrackerTerminal(t *testing.T) {
	tr := NewTracker(t0, ByTerminal)
	c, _ := tr.Submitted(t0.Add(time.Second)) // a prompt typed while it starts
	if c.To != harness.Working {
		t.Fatalf("%+v", c)
	}
	c, _ = tr.Quiet(t0.Add(9 * time.Second))
	if c.To != harness.Waiting || c.Turn != 8*time.Second {
		t.Errorf("%+v", c)
	}
	if _, ok := tr.Quiet(t0.Add(20 * time.Second)); ok {
		t.Error("quiet twice is a change")
	}
}

func TestNoticer(t *testing.T) {
	r := &Run{Tool: tool, ID: uid, Cwd: "/home/u/src/p", Proc: Proc{PID: 42}}
	n := Noticer{Rules: NoticeRules{After: 30 * time.Second, Every: 5 * time.Second}}
	cases := []struct {
		c    Change
		want bool
		why  string
	}{
		{Change{From: harness.Starting, To: harness.Waiting, At: t0}, false, ""},
		{Change{From: harness.Waiting, To: harness.Working, At: t0.Add(time.Second)}, false, ""},
		{Change{From: harness.Working, To: harness.NeedsYou, At: t0.Add(2 * time.Second), Why: "permission request"}, true, "permission request"},
		{Change{From: harness.NeedsYou, To: harness.Working, At: t0.Add(3 * time.Second)}, false, ""},
		// Another needs-you within Every of the last notice: dropped.
		{Change{From: harness.Working, To: harness.NeedsYou, At: t0.Add(4 * time.Second)}, false, ""},
		{Change{From: harness.NeedsYou, To: harness.Waiting, At: t0.Add(10 * time.Second), Turn: 10 * time.Second}, false, ""},
		{Change{From: harness.Working, To: harness.Waiting, At: t0.Add(100 * time.Second), Turn: 95 * time.Second}, true, "turn finished after 1m35s"},
		// A needs-you right after a finished turn is still told.
		{Change{From: harness.Waiting, To: harness.NeedsYou, At: t0.Add(101 * time.Second)}, true, "it waits for you"},
		{Change{From: harness.Working, To: harness.Waiting, At: t0.Add(103 * time.Second), Turn: 40 * time.Second}, false, ""},
	}
	for i, c := range cases {
		got, ok := n.Consider(c.c, r)
		if ok != c.want || (ok && got.Why != c.why) {
			t.Errorf("%d: %+v -> %v %q", i, c.c, ok, got.Why)
		}
		if ok && (got.Agent != display(tool) || got.PID != 42 || got.Title() == "" || got.Body("/home/u") != "~/src/p: "+c.why) {
			t.Errorf("%d: notice %+v %q %q", i, got, got.Title(), got.Body("/home/u"))
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0s", 59 * time.Second: "59s", 95 * time.Second: "1m35s",
		2*time.Hour + 5*time.Minute: "2h05m", 200 * time.Hour: "8d"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestOrder(t *testing.T) {
	runs := []Run{
		{Tool: "a", State: harness.Waiting, Since: t0.Add(3 * time.Second)},
		{Tool: "b", State: harness.NeedsYou, Since: t0.Add(1 * time.Second)},
		{Tool: "c", State: harness.Working, Since: t0.Add(5 * time.Second)},
		{Tool: "d", State: harness.NeedsYou, Since: t0.Add(2 * time.Second)},
	}
	Order(runs)
	var got []string
	for _, r := range runs {
		got = append(got, r.Tool)
	}
	if diff := cmp.Diff([]string{"d", "b", "c", "a"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// sleeper starts a process that lives until the test ends.
func sleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func TestAliveAndRunning(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: process start times are not read here")
	}
	d := OpenDir(filepath.Join(t.TempDir(), "live"))
	live := sleeper(t)
	p, ok := Identify(live.Process.Pid)
	if !ok || !Alive(p) {
		t.Fatalf("a running process: %+v %v", p, ok)
	}
	run := Run{Tool: tool, ID: uid, Cwd: "/p", State: harness.Working, Since: t0, Started: t0, Proc: p, Shim: os.Getpid(),
		Tmux: &Tmux{Socket: "/tmp/tmux-1/default", Pane: "%3"}}
	if err := d.Write(&run); err != nil {
		t.Fatal(err)
	}
	// The same PID with another start time (a reused PID), another boot,
	// and a process that has exited: none is running.
	reused := run
	reused.ID, reused.Start = "", p.Start+"1"
	otherBoot := run
	otherBoot.ID, otherBoot.Boot = "", "00000000-0000-4000-8000-000000000000"
	dead := sleeper(t)
	dp, _ := Identify(dead.Process.Pid)
	dead.Process.Kill()
	dead.Wait()
	gone := run
	gone.Proc = dp
	for _, r := range []*Run{&reused, &otherBoot, &gone} {
		if Alive(r.Proc) {
			t.Errorf("%+v is alive", r.Proc)
		}
		if err := d.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	// A file of someone else's making that fails the checks is skipped.
	os.WriteFile(filepath.Join(d.Path(), "x-1-2.json"), []byte(`{"tool":"`+tool+`","id":"../../x","state":"working","pid":1,"cwd":"/"}`), 0o600)
	got := d.Running()
	if len(got) != 1 || got[0].ID != uid || got[0].Tmux.Pane != "%3" {
		t.Fatalf("running %+v", got)
	}
	if all, bad := d.Read(); len(all) != 4 || len(bad) != 1 {
		t.Errorf("read %d runs, %d bad", len(all), len(bad))
	}
	// The conversation runs, and the runs that are over never knew theirs:
	// nothing to restore.
	if lost := d.Lost(time.Time{}); len(lost) != 0 {
		t.Errorf("lost while it runs: %+v", lost)
	}
	if _, ok := Find(got, tool, uid); !ok {
		t.Error("Find misses the running conversation")
	}
	if _, ok := Find(got, otherTool, uid); ok {
		t.Error("Find matched another tool")
	}
	if err := d.Remove(&run); err != nil || len(d.Running()) != 0 {
		t.Errorf("after Remove: %v %+v", err, d.Running())
	}
	// Once it no longer runs, the file its killed run left is lost: why
	// and when from the file itself.
	if lost := d.Lost(time.Time{}); len(lost) != 1 || lost[0].PID != dp.PID || lost[0].Why != EndKilled || lost[0].At.IsZero() {
		t.Errorf("lost once over: %+v", lost)
	}
	if err := d.Remove(&run); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

func TestWriteChecks(t *testing.T) {
	d := OpenDir(t.TempDir())
	good := Run{Tool: tool, Cwd: "/p", State: harness.Starting, Proc: Proc{PID: 1, Start: "1", Boot: "b"}}
	for _, bad := range []Run{
		{Tool: "nope", Cwd: "/p", State: harness.Starting, Proc: Proc{PID: 1}},
		{Tool: tool, ID: "X", Cwd: "/p", State: harness.Starting, Proc: Proc{PID: 1}},
		{Tool: tool, Cwd: "/p", State: "sleeping", Proc: Proc{PID: 1}},
		{Tool: tool, Cwd: "p", State: harness.Starting, Proc: Proc{PID: 1}},
		{Tool: tool, Cwd: "/p", State: harness.Starting},
		{Tool: tool, Cwd: "/p", State: harness.Starting, Proc: Proc{PID: 1}, Tmux: &Tmux{Socket: "/s", Pane: "3; rm"}},
	} {
		if err := d.Write(&bad); err == nil {
			t.Errorf("wrote %+v", bad)
		}
	}
	if err := d.Write(&good); err != nil {
		t.Error(err)
	}
}

func TestTmuxOf(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		tmux, pane string
		want       *Tmux
	}{
		{"/tmp/tmux-1000/default,1234,0", "%3", &Tmux{Socket: "/tmp/tmux-1000/default", Pane: "%3"}},
		{"/tmp/a,b/sock,1234,0", "%12", &Tmux{Socket: "/tmp/a,b/sock", Pane: "%12"}},
		{"", "%3", nil},
		{"/tmp/x,1,0", "3", nil},
		{"relative,1,0", "%3", nil},
		{"/tmp/x", "%3", nil},
	} {
		got := TmuxOf(env(map[string]string{"TMUX": c.tmux, "TMUX_PANE": c.pane}))
		if !cmp.Equal(got, c.want) {
			t.Errorf("TmuxOf(%q, %q) = %+v, want %+v", c.tmux, c.pane, got, c.want)
		}
	}
}

func TestParsePanes(t *testing.T) {
	got := parsePanes([]byte("%0 main:0.0\n%3 my work:1.2\nbogus\n%x a:1.0\n%4 evil\x1b]0;x:1.0\n"))
	want := map[string]string{"%0": "main:0.0", "%3": "my work:1.2", "%4": "evil?]0;x:1.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("panes (-want +got):\n%s", diff)
	}
	line := SwitchLine(&Tmux{Socket: "/tmp/my dir/s", Pane: "%3"})
	if line != "tmux -S '/tmp/my dir/s' switch-client -t '%3'" {
		t.Errorf("switch line %q", line)
	}
}

func TestStatuses(t *testing.T) {
	runs := []Run{
		{Tool: tool, Cwd: "/p", State: harness.Working, Proc: Proc{PID: 7}, TTY: "/dev/pts/3",
			Tmux: &Tmux{Socket: "/s", Pane: "%3"}},
		{Tool: otherTool, ID: uid, Cwd: "/q", State: harness.Waiting, Proc: Proc{PID: 8}},
		// Another run on the same server: asked once for both (under -race,
		// this once found the loop reading what the question wrote).
		{Tool: otherTool, Cwd: "/r", State: harness.Waiting, Proc: Proc{PID: 9}, Tmux: &Tmux{Socket: "/s", Pane: "%4"}},
	}
	calls := 0
	titled := 0
	got := Statuses(runs, func(socket string) (map[string]string, error) {
		calls++
		return map[string]string{"%3": "main:1.0", "%4": "main:2.0"}, nil
	}, func(r Run) string {
		titled++
		return "title of " + r.ID
	})
	if titled != 1 || got[1].Title != "title of "+uid || got[0].Title != "" {
		t.Errorf("titles asked %d times: %q, %q; want only the run with an ID's", titled, got[0].Title, got[1].Title)
	}
	if calls != 1 || got[0].Tmux.Target != "main:1.0" || got[1].Tmux != nil || got[0].TTY != "/dev/pts/3" || runs[0].Tmux.Target != "" ||
		got[2].Tmux.Target != "main:2.0" {
		t.Errorf("statuses %+v (%d calls)", got, calls)
	}
	if w := Where(runs[0], "main:1.0"); w != "tmux main:1.0, /dev/pts/3" {
		t.Errorf("where %q", w)
	}
	if w := Where(runs[1], ""); w != "no terminal" {
		t.Errorf("where %q", w)
	}
}

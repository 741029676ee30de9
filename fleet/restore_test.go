package fleet

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/google/go-cmp/cmp"
)

func TestEnding(t *testing.T) {
	for _, c := range []struct {
		code       int
		died, sent syscall.Signal
		want       string
	}{
		{0, 0, 0, EndQuit},
		{1, 0, 0, EndQuit},
		{130, syscall.SIGINT, 0, EndQuit}, // Ctrl-C
		{0, 0, syscall.SIGHUP, EndHangup}, // terminal closed; the CLI exited 0 on it
		{129, 0, 0, EndHangup},            // a CLI reporting a SIGHUP of its own
		{129, syscall.SIGHUP, 0, EndHangup},
		{143, 0, syscall.SIGTERM, EndSignal},
		{0, 0, syscall.SIGTERM, EndSignal}, // Grok exits 0 on SIGTERM
		{143, 0, 0, EndSignal},             // SIGTERM sent to the CLI itself
		{137, syscall.SIGKILL, 0, EndSignal},
		{139, syscall.SIGSEGV, 0, EndSignal},
		{0, 0, syscall.SIGQUIT, EndSignal},
		{129, 0, syscall.SIGTERM, EndSignal}, // the first signal passed on decides
	} {
		if got := Ending(c.code, c.died, c.sent); got != c.want {
			t.Errorf("Ending(%d, %v, %v) = %s, want %s", c.code, c.died, c.sent, got, c.want)
		}
	}
}

const (
	uid2 = "1a2b3c4d-0000-4000-8000-000000000002"
	uid3 = "1a2b3c4d-0000-4000-8000-000000000003"
	uid4 = "1a2b3c4d-0000-4000-8000-000000000004"
)

func TestLost(t *testing.T) {
	const boot, prev, older = "boot-now", "boot-prev", "boot-old"
	run := func(id, b string, pid int, seen time.Duration) Run {
		return Run{Tool: tool, ID: id, Cwd: "/p", State: harness.Waiting, Started: t0, Since: t0,
			Proc: Proc{PID: pid, Start: "1", Boot: b}, Seen: t0.Add(seen)}
	}
	ended := func(r Run, why string, at time.Duration) Run {
		r.End, r.EndAt = why, t0.Add(at)
		return r
	}
	alive := func(r Run) bool { return r.PID == 1 }
	runs := []Run{
		run(uid, boot, 1, time.Hour),                            // running now
		run(uid, boot, 2, 30*time.Minute),                       // an earlier run of it, killed: it runs again
		ended(run(uid2, boot, 3, 0), EndHangup, 50*time.Minute), // terminal closed
		ended(run(uid3, boot, 4, 0), EndSignal, 40*time.Minute), // SIGTERM
		run(uid4, prev, 5, 20*time.Minute),                      // cut by the last reboot
		run(uid4, older, 6, 10*time.Minute),                     // an older loss of the same one
		run("", boot, 7, 55*time.Minute),                        // never knew its conversation
		run(uid3, older, 8, 5*time.Minute),                      // older boot: only with --since
		{Tool: otherTool, ID: uid, Cwd: "/q", Proc: Proc{PID: 9, Boot: older}, Seen: t0.Add(time.Minute)}, // older boot
	}
	ids := func(ls []Lost) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Tool+" "+l.ID[len(l.ID)-1:]+" "+l.Why+" "+l.Boot)
		}
		return out
	}
	got := ids(lost(runs, alive, boot, time.Time{}, time.Time{}))
	want := []string{
		tool + " 2 hangup " + boot,
		tool + " 3 signal " + boot,
		tool + " 4 killed " + prev,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("since the last boot (-want +got):\n%s", diff)
	}

	// --since reaches other boots, newest first, one loss per conversation.
	got = ids(lost(runs, alive, boot, time.Time{}, t0))
	want = []string{
		tool + " 2 hangup " + boot,
		tool + " 3 signal " + boot,
		tool + " 4 killed " + prev,
		otherTool + " " + uid[len(uid)-1:] + " killed " + older,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("since t0 (-want +got):\n%s", diff)
	}
	if got := ids(lost(runs, alive, boot, time.Time{}, t0.Add(45*time.Minute))); len(got) != 1 || !strings.Contains(got[0], "hangup") {
		t.Errorf("since t0+45m: %v", got)
	}

	// A message after the loss was a resume: the loss is not offered
	// again. One before it was not; nor is a later end of a run that left
	// no message (a start that failed).
	var kept []Lost
	for _, l := range lost(runs, alive, boot, time.Time{}, time.Time{}) {
		switch {
		case l.ID == uid2 && l.ResumedSince(time.Time{}, t0.Add(51*time.Minute)):
		case l.ID == uid3 && l.ResumedSince(t0.Add(45*time.Minute), t0.Add(39*time.Minute)):
		default:
			kept = append(kept, l)
		}
	}
	got = ids(kept)
	want = []string{tool + " 3 signal " + boot, tool + " 4 killed " + prev}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after a resume (-want +got):\n%s", diff)
	}

	// With no file of another boot there is no previous boot to take.
	if got := ids(lost(runs[:4], alive, boot, time.Time{}, time.Time{})); len(got) != 2 {
		t.Errorf("this boot only: %v", got)
	}
}

func TestTidy(t *testing.T) {
	d := OpenDir(t.TempDir())
	gone := func(id string, pid int) Run {
		return Run{Tool: tool, ID: id, Cwd: "/p", State: harness.Waiting, Started: time.Now(),
			Proc: Proc{PID: pid, Start: "1", Boot: "another boot"}}
	}
	mine := gone(uid, 1)
	old := gone(uid2, 5)
	old.Started = time.Now().Add(-keepLost - time.Hour)
	for _, r := range []Run{mine, gone(uid, 2), gone(uid2, 3), gone("", 4), old} {
		if err := d.Write(&r); err != nil {
			t.Fatal(err)
		}
	}
	// Files are dated by their last write: date the old one back too.
	past := time.Now().Add(-keepLost - time.Hour)
	os.Chtimes(filepath.Join(d.Path(), old.name()), past, past)
	d.Tidy(&mine)
	runs, _ := d.Read()
	var left []int
	for _, r := range runs {
		left = append(left, r.PID)
	}
	// Its own file, and the other conversation's recent loss, stay.
	if diff := cmp.Diff([]int{1, 3}, left); diff != "" {
		t.Errorf("after Tidy (-want +got pids):\n%s", diff)
	}
}

func TestWindows(t *testing.T) {
	cmd, err := ReopenCommand([]string{"/opt/my tools/fleetcom", "resume", "--exec"}, tool, uid)
	if err != nil {
		t.Fatal(err)
	}
	if want := "exec '/opt/my tools/fleetcom' resume --exec " + tool + " " + uid; cmd != want {
		t.Errorf("command %q, want %q", cmd, want)
	}
	for _, bad := range [][2]string{{tool, "$(reboot)"}, {tool, uid + "; rm -rf ~"}, {"sh", uid}} {
		if c, err := ReopenCommand([]string{"/bin/fleetcom"}, bad[0], bad[1]); err == nil {
			t.Errorf("ReopenCommand(%q, %q) = %q", bad[0], bad[1], c)
		}
	}
	w := Window{Session: "fleetcom-restore", Create: true, Name: WindowName(tool, uid), Dir: "/src/C# #(reboot)", Command: cmd}
	got := w.Args()
	want := []string{"new-session", "-d", "-s", "fleetcom-restore", "-P", "-F", "#{pane_id}", "-n", tool + "-0f8b2c3e", "-c", "/src/C## ##(reboot)", cmd}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("new session (-want +got):\n%s", diff)
	}
	w.Create = false
	if got := w.Args(); !cmp.Equal(got[:4], []string{"new-window", "-d", "-t", "=fleetcom-restore:"}) {
		t.Errorf("next window: %q", got)
	}
	w.Session = ""
	if got := w.Args(); got[0] != "new-window" || got[2] != "-P" || got[5] != "-n" {
		t.Errorf("current session: %q", got)
	}
	if line := w.Line(); !strings.HasPrefix(line, "tmux new-window -d -P -F '#{pane_id}' -n "+tool+"-0f8b2c3e -c '/src/C## ##(reboot)' 'exec ") {
		t.Errorf("line %q", line)
	}
	for s, ok := range map[string]bool{"fleetcom-restore": true, "work_2": true, "": false, "-x": false,
		"a:b": false, "a.b": false, "#{x}": false, "a b": false, strings.Repeat("a", 65): false} {
		if ValidSession(s) != ok {
			t.Errorf("ValidSession(%q) = %v", s, !ok)
		}
	}
}

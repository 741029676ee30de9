package fleet

import (
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// FuzzLiveFile: whatever a live file holds, a run read from it is of a
// registered agent, with an ID of its grammar, a known state, a process, a
// well-formed tmux pane and, when it ended, a known end.
func FuzzLiveFile(f *testing.F) {
	f.Add(`{"tool":"` + tool + `","id":"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e","cwd":"/p","state":"working","pid":1,"pid_start":"2","boot":"b"}`)
	f.Add(`{"tool":"` + otherTool + `","id":"","cwd":"/p","state":"needs-you","pid":1,"pid_start":"2","boot":"b","tmux":{"socket":"/s","pane":"%1"}}`)
	f.Add(`{"tool":"` + tool + `","id":"../x","cwd":"/","state":"waiting","pid":1,"pid_start":"2","boot":"b"}`)
	f.Add(`{"tool":"` + tool + `","id":"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e","cwd":"/p","state":"waiting","pid":1,"pid_start":"2","boot":"b","end":"hangup","end_at":"2026-12-01T12:00:00Z"}`)
	// In memory: Read adds only the folder's listing and a bounded read
	// (fleet_test.go reads a folder with a bad file in it), and a file
	// per input made this the slowest target by far.
	f.Fuzz(func(t *testing.T, data string) {
		r, ok := parseLive("b-1-2.json", []byte(data))
		if !ok {
			return
		}
		a, known := agents.Named(r.Tool)
		if !known || (r.ID != "" && !a.ID.Valid(r.ID)) || !ValidState(r.State) || r.PID <= 0 ||
			(r.Tmux != nil && !tmuxPane(r.Tmux.Pane)) || (r.End != "" && r.End != EndHangup && r.End != EndSignal) {
			t.Fatalf("read %+v from %q", r, data)
		}
	})
}

// FuzzParsePanes: a pane ID is %N, and a target holds no control character.
func FuzzParsePanes(f *testing.F) {
	f.Add("%0 main:0.0\n%3 my work:1.2\n")
	f.Add("%4 evil\x1b]0;x:1.0\n")
	f.Fuzz(func(t *testing.T, out string) {
		for id, target := range parsePanes([]byte(out)) {
			if !tmuxPane(id) {
				t.Fatalf("pane %q", id)
			}
			for _, c := range []byte(target) {
				if c < 0x20 || c == 0x7f {
					t.Fatalf("target %q", target)
				}
			}
		}
	})
}

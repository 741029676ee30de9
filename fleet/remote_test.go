package fleet

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every object of a host's answer passes the checks of a live file, and
// the terminal and tmux fields theirs; the others are dropped.
func TestReadAnswerChecks(t *testing.T) {
	good := func() map[string]any {
		return map[string]any{"tool": tool, "id": uid, "cwd": "/srv/api", "title": "t", "state": "waiting",
			"since": t0, "started": t0, "pid": 7, "tty": "/dev/pts/4",
			"tmux": map[string]any{"socket": "/tmp/tmux-1000/default", "pane": "%5", "target": "ops:2.1"}}
	}
	bad := map[string]func(m map[string]any){
		"unknown tool":      func(m map[string]any) { m["tool"] = "evil" },
		"id off grammar":    func(m map[string]any) { m["id"] = "x; rm -rf ~" },
		"unknown state":     func(m map[string]any) { m["state"] = "pwned" },
		"relative cwd":      func(m map[string]any) { m["cwd"] = "srv" },
		"no process":        func(m map[string]any) { m["pid"] = 0 },
		"tty elsewhere":     func(m map[string]any) { m["tty"] = "/etc/passwd" },
		"tty up and out":    func(m map[string]any) { m["tty"] = "/dev/../etc/passwd" },
		"tty with escapes":  func(m map[string]any) { m["tty"] = "/dev/pts/1\x1b]0;x\x07" },
		"pane off grammar":  func(m map[string]any) { m["tmux"].(map[string]any)["pane"] = "%1;rm -rf ~" },
		"relative socket":   func(m map[string]any) { m["tmux"].(map[string]any)["socket"] = "default" },
		"socket with C1":    func(m map[string]any) { m["tmux"].(map[string]any)["socket"] = "/tmp/\u009b2J" },
		"target a command":  func(m map[string]any) { m["tmux"].(map[string]any)["target"] = "%1;rm -rf ~" },
		"target with C1":    func(m map[string]any) { m["tmux"].(map[string]any)["target"] = "a\u009b:1.0" },
		"target off digits": func(m map[string]any) { m["tmux"].(map[string]any)["target"] = "a:1.x" },
	}
	objs := []map[string]any{good()}
	for _, f := range bad {
		m := good()
		f(m)
		objs = append(objs, m)
	}
	noTmux := good()
	noTmux["tmux"], noTmux["tty"] = nil, ""
	objs = append(objs, noTmux)
	data, _ := json.Marshal(objs)
	got, err := readAnswer(data, "box")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Host != "box" || got[0].Tmux.Target != "ops:2.1" || got[1].Tmux != nil {
		t.Errorf("kept %+v", got)
	}
}

// An answer of more runs than any host has is refused, not drawn.
func TestReadAnswerTooManyRuns(t *testing.T) {
	row := `{"tool":"` + tool + `","id":"","cwd":"/","state":"working","pid":1}`
	data := "[" + strings.Repeat(row+",", maxRemoteRuns) + row + "]"
	if _, err := readAnswer([]byte(data), "box"); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("readAnswer of %d runs: %v", maxRemoteRuns+1, err)
	}
}

func TestNewLinkSocket(t *testing.T) {
	for sock, want := range map[string]bool{
		"":                                false,
		"/run/user/1000/fleetcom/ssh-1/0": true,
		"relative/0":                      false,
		"/a b/0":                          false,
		"/a%h/0":                          false,
		"/" + strings.Repeat("a", 100):    false,
	} {
		if got := NewLink("box", sock).Multiplexed(); got != want {
			t.Errorf("NewLink(%q).Multiplexed() = %v", sock, got)
		}
	}
}

package config

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/google/go-cmp/cmp"
)

func TestNotifyAndStatus(t *testing.T) {
	names := agents.Names()
	on, off, auto := names[0], names[1], names[2]
	c, err := Load(write(t, `[notify]
desktop = true
terminal = "osc777"
command = ["/bin/notifier", "--from", "fleetcom"]
after = 120
every = 0

[status]
hosts = ["box1", "me@box2"]

[`+on+`]
hooks = true

[`+off+`]
hooks = false
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Notify{Desktop: true, Terminal: "osc777", Command: []string{"/bin/notifier", "--from", "fleetcom"},
		After: 2 * time.Minute, Every: 0}
	if diff := cmp.Diff(want, c.Notify); diff != "" || !c.Notify.On() {
		t.Errorf("notify (-want +got):\n%s", diff)
	}
	if !cmp.Equal(c.Hosts, []string{"box1", "me@box2"}) {
		t.Errorf("hosts %q", c.Hosts)
	}
	if c.Hooks(on) != harness.HooksOn || c.Hooks(off) != harness.HooksOff || c.Hooks(auto) != harness.HooksAuto {
		t.Errorf("hooks %v %v %v", c.Hooks(on), c.Hooks(off), c.Hooks(auto))
	}
	// Off by default; an empty table chooses nothing; defaults for the
	// thresholds.
	for _, doc := range []string{"", "[notify]\n", "[notify]\nterminal = \"none\"\n"} {
		c, err := Load(write(t, doc))
		if err != nil || c.Notify.On() {
			t.Errorf("%q: %+v %v", doc, c.Notify, err)
		}
	}
	c, _ = Load(write(t, "[notify]\nterminal = \"bell\"\n"))
	if c.Notify.After != time.Minute || c.Notify.Every != 10*time.Second || c.Notify.Terminal != "bell" {
		t.Errorf("defaults: %+v", c.Notify)
	}
}

func TestNotifyRejects(t *testing.T) {
	agent := agents.Names()[0]
	for doc, want := range map[string]string{
		"[notify]\ndesktop = 1":                    "notify.desktop",
		"[notify]\nterminal = \"osc8\"":            "notify.terminal",
		"[notify]\ncommand = \"notify-send\"":      "notify.command",
		"[notify]\ncommand = [\"-x\"]":             "notify.command",
		"[notify]\ncommand = []":                   "notify.command",
		"[notify]\nafter = -1":                     "notify.after",
		"[notify]\nevery = \"10s\"":                "notify.every",
		"[notify]\nloud = true":                    "unknown setting notify.loud",
		"[status]\nhosts = [\"-oProxyCommand=x\"]": "status.hosts",
		"[status]\nhosts = [\"a b\"]":              "status.hosts",
		"[status]\nhost = [\"a\"]":                 "unknown setting status.host",
		"[" + agent + "]\nhooks = \"yes\"":         agent + ".hooks",
		"notify = 1":                               "notify must be a table",
	} {
		_, err := Load(write(t, doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%q) = %v, want an error about %q", doc, err, want)
		}
	}
}

func TestValidHost(t *testing.T) {
	for h, want := range map[string]bool{"box": true, "me@box.example": true, "me@box.example:22": false, "": false, "-oX": false,
		"a b": false, "a\x1b": false, "a;b": false, "x`id`@box": false, "%h": false, "ssh://u@h:2222": false} {
		if ValidHost(h) != want {
			t.Errorf("ValidHost(%q) = %v", h, !want)
		}
	}
}

// A host in [status] that is more than a name is refused, said where, and
// recognisable as such (status refuses to run with it).
func TestStatusHostRefused(t *testing.T) {
	for _, h := range []string{"a;b", "x`id`@box", "%h", "ssh://u@h:2222"} {
		doc := "[status]\nhosts = [\"box\", " + strconv.Quote(h) + "]\n"
		_, err := Load(write(t, doc))
		if !errors.Is(err, ErrHost) || !strings.Contains(err.Error(), "line 2: status.hosts: ") {
			t.Errorf("Load(%q) = %v", doc, err)
		}
	}
}

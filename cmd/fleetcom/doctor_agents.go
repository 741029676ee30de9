package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// checkVersion says which version of an agent is installed and whether
// fleetcom was proven on it (the versions the real-CLI suite passed on, in
// the agent's Spec). A version fleetcom has not seen is a note: the CLIs
// ship every week, and most releases change nothing fleetcom reads.
func checkVersion(a harness.Agent, real, cacheDir string) doctorCheck {
	c := doctorCheck{Name: a.Name + ".version", Status: statusOK, Path: real}
	v := harness.Probe(a, real, cacheDir)
	const drift = "it probably works; the drift check below says so if its evidence stops agreeing"
	proven := strings.Join(a.Proven, ", ")
	switch {
	case v == "" && len(a.Proven) == 0:
		c.Status, c.Detail = statusNote, real+" --version names no version; "+a.Name+" is not proven yet"
	case v == "":
		c.Status, c.Detail = statusNote, real+" --version names no version; fleetcom was proven on "+proven
	case a.ProvenOn(v):
		c.Detail = a.Name + " " + v + ", proven"
	case len(a.Proven) == 0:
		c.Status, c.Detail = statusNote, a.Name+" "+v+" is not proven yet (the real-CLI suite has passed on no version): "+drift
	default:
		c.Status, c.Detail = statusNote, a.Name+" "+v+" is not among the versions fleetcom was proven on ("+proven+"): "+drift
	}
	return c
}

// driftWindow is how many of an agent's latest runs on its newest version
// the drift check looks at.
const driftWindow = 10

// checkDrift reports, per agent, an evidence channel that stayed silent or
// disagreed in the latest runs on the newest version seen: the first sign
// that a release moved its exit hint or broke a hook. It reads the local
// tally the shims keep; a store that is not there yet has nothing to say.
func checkDrift(storeDir string) []doctorCheck {
	var out []doctorCheck
	for _, a := range agents.All() {
		runs, err := store.Runs(storeDir, a.Name)
		if err != nil || len(runs) == 0 {
			continue
		}
		version := runs[len(runs)-1].Version
		var recent []store.Run
		for i := len(runs) - 1; i >= 0 && len(recent) < driftWindow; i-- {
			if runs[i].Version == version {
				recent = append(recent, runs[i])
			}
		}
		if d := driftDetail(recent); d != "" {
			name := a.Name
			if version != "" {
				name += " " + version
			}
			out = append(out, doctorCheck{Name: a.Name + ".drift", Status: statusNote, Detail: name + ": " + d,
				Hint: "the agent may have changed how it reports its sessions; fleetcom still records them from the channels that answer"})
		}
	}
	return out
}

// driftDetail describes what went wrong in runs, "" when nothing did.
func driftDetail(runs []store.Run) string {
	count := func(f func(store.Run) bool) int {
		n := 0
		for _, r := range runs {
			if f(r) {
				n++
			}
		}
		return n
	}
	var parts []string
	for _, ch := range []struct {
		name string
		of   func(store.Run) store.Outcome
	}{
		{"exit hint", func(r store.Run) store.Outcome { return r.Hint }},
		{"capture", func(r store.Run) store.Outcome { return r.Capture }},
	} {
		silent := count(func(r store.Run) bool { return ch.of(r) == store.Silent })
		against := count(func(r store.Run) bool { return ch.of(r) == store.Disagreed })
		if silent > 0 {
			parts = append(parts, fmt.Sprintf("%s not read in %d of the last %d runs", ch.name, silent, len(runs)))
		}
		if against > 0 {
			parts = append(parts, fmt.Sprintf("%s named another conversation in %d of the last %d runs", ch.name, against, len(runs)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	// Say which channel carried the runs the others missed.
	hintOK := count(func(r store.Run) bool { return r.Hint == store.Agreed })
	captureOK := count(func(r store.Run) bool { return r.Capture == store.Agreed })
	switch {
	case captureOK > 0 && strings.HasPrefix(parts[0], "exit hint"):
		parts = append(parts, "the capture agreed")
	case hintOK > 0 && strings.HasPrefix(parts[0], "capture"):
		parts = append(parts, "the exit hint agreed")
	}
	return strings.Join(parts, "; ")
}

// checkNeedsYou says what tells fleetcom that a run of agent a waits for
// the user, with the user's configuration: status shows needs-you, and a
// notice goes out, only where something does.
func checkNeedsYou(a harness.Agent, cfg config.Config) doctorCheck {
	c := doctorCheck{Name: a.Name + ".needs-you", Status: statusOK}
	if from := harness.NeedsYouFrom(a, a.Home(os.Getenv), cfg.Hooks(a.Name)); from != "" {
		c.Detail = "a run that waits for you is told by " + from
	} else {
		c.Status = statusNote
		c.Detail = "nothing tells when a " + a.Name + " run waits for you: status shows it working or waiting"
	}
	return c
}

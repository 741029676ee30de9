// Package opencode is fleetcom's knowledge of opencode: its Spec and
// Behaviour, the JavaScript plugin that reports a run's session and state
// (plugin.go), its SQLite store (store.go: in process through harness.OpenDB
// in the fleetcom command, with the sqlite3 program in the shim),
// and discovery (find.go). It exports one value, Agent, which the list
// (harness/agents) names.
package opencode

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
)

// spec describes opencode (the opencode-ai package; measured on 1.18.33,
// e2e/README.md). Its IDs are not UUIDs, and it has no flag that fixes the ID
// of a new session (`-s` with an unknown ID fails), so a bare run gets no
// pinned ID: a plugin of fleetcom's, given to the one run through
// OPENCODE_CONFIG_CONTENT (opencode adds the plugins named there to the user's
// own), copies session.created and the state events into the capture file
// (plugin.go). The session exists only from the first prompt; `opencode -s
// <id>` continues one, from any directory in the TUI. The store is one SQLite
// database (store.go).
var spec = harness.Spec{
	Name:    "opencode",
	Display: "opencode",
	// opencode keeps its data under $XDG_DATA_HOME/opencode (its database
	// is opencode.db there), else ~/.local/share/opencode.
	HomeVar:     "XDG_DATA_HOME",
	HomeDir:     "opencode",
	HomeVarBase: true,
	HomeDefault: ".local/share/opencode",
	ID:          &grammar,
	Resume:      harness.Spelling{Words: []string{"-s"}},
	// Its plugin hears session.created, which a resumed session never
	// fires (measured on 1.18.33).
	CapturesNewOnly: true,
	Dropped:         []string{"-s", "--session", "-c", "--continue", "--fork", "--prompt"},
	Assets:          []harness.Asset{{Name: pluginAsset, Mode: 0o600, Data: []byte(plugin)}},
	Proven:          []string{"1.18.33"},
	Banners:         []string{"Continue opencode -s"},
	Widening:        []harness.Widener{{Option: "--auto"}},
}

// Agent is opencode.
var Agent = harness.Agent{Spec: &spec, Behaviour: opencode{}}

type opencode struct{}

// The capabilities opencode has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability.
var _ interface {
	harness.Behaviour
	harness.Capturer
	harness.Stater
	harness.Correlator
	harness.Titler
	harness.Excerpter
	harness.Finder
	harness.Activer
	harness.Diagnoser
	harness.Unmovable
	harness.DBIndexer
} = opencode{}

// grammar is the shape of opencode's session IDs: "ses_", then 12
// lowercase hex digits (a time, inverted so that newer sessions sort
// first), then 14 characters of base 62; 30 in all
// (ses_dcbb20063ffeCKCXIkplFKKSHS).
var grammar = harness.Grammar{
	Name:        `"ses_", 12 lowercase hex digits and 14 letters or digits`,
	Valid:       func(s string) bool { return len(s) == idLen && idPrefix(s, idLen) },
	ValidPrefix: idPrefix,
}

// idLen is the length of an opencode session ID.
const idLen = 30

// idPrefix reports whether s may begin an opencode session ID and
// has at least min characters.
func idPrefix(s string, min int) bool {
	if len(s) < min || len(s) > idLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var ok bool
		switch {
		case i < 4:
			ok = c == "ses_"[i]
		case i < 16:
			ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
		default:
			ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		}
		if !ok {
			return false
		}
	}
	return true
}

// Instrument implements Behaviour: the plugin, named in
// OPENCODE_CONFIG_CONTENT, and the capture file it writes to. A user's own
// OPENCODE_CONFIG_CONTENT is kept, the plugin added to its list; one that
// is not a JSON object fleetcom can add to is left alone, and the run goes
// without the plugin (the exit hint and the store still name the session).
func (opencode) Instrument(f harness.Form, run harness.Run) (harness.Instrumentation, error) {
	in := harness.Instrumentation{Pinned: f.Resume}
	if f.Resume != "" {
		if err := spec.ValidateID(f.Resume); err != nil {
			return harness.Instrumentation{}, err
		}
	}
	plugin := run.Assets[pluginAsset]
	if plugin == "" || run.Capture == "" {
		return in, nil
	}
	content, ok := configContent(os.Getenv(configVar), plugin)
	if !ok {
		return in, nil
	}
	in.Env = append(run.CaptureEnv(), configVar+"="+content)
	in.States = true
	return in, nil
}

// configVar is the variable whose JSON opencode merges over its
// config files for one run.
const configVar = "OPENCODE_CONFIG_CONTENT"

// configContent returns the OPENCODE_CONFIG_CONTENT that loads the
// plugin at path on top of the user's own value (own, "" for none); false
// when own cannot carry it: not a JSON object, or a "plugin" that is not a
// list.
func configContent(own, path string) (string, bool) {
	spec := harness.JSONString(fileURL(path))
	if strings.TrimSpace(own) == "" {
		// The common case, written out: no JSON decoding on the way to
		// the child's start.
		return `{"plugin":[` + string(spec) + `]}`, true
	}
	var doc map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(own))
	dec.UseNumber()
	if dec.Decode(&doc) != nil || doc == nil || dec.More() {
		return "", false
	}
	var plugins []json.RawMessage
	if raw, ok := doc["plugin"]; ok && json.Unmarshal(raw, &plugins) != nil {
		return "", false
	}
	plugins = append(plugins, spec)
	list, err := json.Marshal(plugins)
	if err != nil {
		return "", false
	}
	doc["plugin"] = list
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(doc) != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// fileURL is the file:// URL of an absolute path, each byte outside the
// unreserved set and '/' percent-encoded.
func fileURL(path string) string { return "file://" + harness.PercentEncode(path, "/") }

var hint = harness.Hint{Spec: &spec, Words: [][]string{{"-s", "--session"}}}

// ScrapeExit implements Behaviour: the last `opencode -s <id>`, which the
// TUI prints after "Continue" at exit when the session had a prompt.
func (opencode) ScrapeExit(tail []byte) string {
	return harness.ScrapeTail(tail, hint.Last)
}

// Exists implements Behaviour: a session of cwd (any, with no cwd) with at
// least one message. A store fleetcom cannot read (no sqlite3, a database
// it cannot open) cannot tell: the conversation is taken to be there, so
// that nothing is dropped on a guess (prune), and Adoptable, which a resume
// passes first, says why it cannot be resumed.
func (opencode) Exists(home, cwd, id string) bool {
	s, err := find(home, id)
	if err != nil {
		return !absent(err)
	}
	return s.conversation() && (cwd == "" || s.of(cwd))
}

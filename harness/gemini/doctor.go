package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Gemini's session cleanup (general.sessionRetention, on by default,
// measured on 0.61.0): every start that loads its configuration in a
// directory (a new conversation, -p, --list-sessions, a resume of another
// conversation; not --version or --help) deletes, besides sessions older
// than maxAge, every session file with nothing to resume, and with each one
// every file named by the same first eight characters of an ID. A resume in
// a later minute than the conversation began leaves just such a file (two
// lines, its context only) beside the conversation: the next start of any
// other conversation there deletes the conversation. fleetcom starts Gemini
// only as the user typed it (and resume --exec as `gemini --resume <id>`,
// which spares the conversation it resumes); doctor warns while the cleanup
// is on.

// Diagnose implements Diagnoser: whether Gemini's session cleanup is on.
func (gemini) Diagnose(home string) []harness.Note {
	on := true
	// System defaults, then the user's settings, then the system settings,
	// which win (a project's own settings may say otherwise there).
	for _, p := range []string{systemDefaults(), filepath.Join(home, "settings.json"), systemSettings()} {
		if v, ok := retention(p); ok {
			on = v
		}
	}
	if !on {
		return []harness.Note{{Name: "gemini.retention", OK: true,
			Detail: "gemini's session cleanup is off (general.sessionRetention.enabled false): resumed conversations are kept"}}
	}
	return []harness.Note{{Name: "gemini.retention", OK: false,
		Detail: "gemini's session cleanup is on (general.sessionRetention, its default): a conversation resumed in a later " +
			"minute than it began leaves a second file with its ID, and the next gemini started in that directory deletes " +
			"the conversation with it; to keep them, set \"general\": {\"sessionRetention\": {\"enabled\": false}} in " +
			filepath.Join(home, "settings.json")}}
}

// systemSettings is where Gemini reads its system settings.
func systemSettings() string {
	if p := os.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	return "/etc/gemini-cli/settings.json"
}

// systemDefaults is where Gemini reads its system defaults.
func systemDefaults() string {
	if p := os.Getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(systemSettings()), "system-defaults.json")
}

// retention reads general.sessionRetention.enabled from a settings
// file (JSON with comments, as Gemini reads it); ok is false when the file
// does not say.
func retention(path string) (enabled, ok bool) {
	var s struct {
		General struct {
			Retention struct {
				Enabled *bool `json:"enabled"`
			} `json:"sessionRetention"`
		} `json:"general"`
	}
	data, err := safe.ReadFile(path, 1<<20, 0)
	if err != nil || json.Unmarshal(stripJSONComments(data), &s) != nil || s.General.Retention.Enabled == nil {
		return false, false
	}
	return *s.General.Retention.Enabled, true
}

// stripJSONComments blanks // and /* */ comments outside strings.
func stripJSONComments(data []byte) []byte {
	out := append([]byte(nil), data...)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

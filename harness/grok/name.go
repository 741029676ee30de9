package grok

import "github.com/fleetcom/fleetcom/harness"

// Grok titles every session itself (summary.json generated_title, written
// after the first prompt and refreshed at a couple of early turns), and
// `/rename TITLE` (alias /title) replaces it with the user's own, marked
// "title_is_manual": true, which automatic titling then leaves alone
// (measured on 1.0.41; its manual, docs/user-guide/17-sessions.md, says the
// same, and that `/rename --auto` hands the title back). The title is
// already what fleetcom shows; only a manual one is a name.

// ConversationName implements Namer.
func (grok) ConversationName(home, cwd, id string) string {
	dir, ok := sessionDir(home, cwd, id)
	if !ok {
		return ""
	}
	if s, ok := readSummary(dir); ok && s.TitleIsManual {
		return harness.CleanName(s.GeneratedTitle)
	}
	return ""
}

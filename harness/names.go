package harness

import "strings"

// Names people give their conversations (Claude Code's /rename and --name,
// Codex's thread names, Grok's /rename) are read from each agent's own
// store by the agents that keep them. A name only ever selects a
// conversation: it is shown, and matched against what the user typed, but
// never put on a command line, where only the conversation's ID goes, after
// passing the agent's grammar.

// Namer is implemented by agents whose conversations can carry a name.
type Namer interface {
	// ConversationName returns the name of conversation id as its agent
	// keeps it now, cleaned like a title; "" when it has none.
	ConversationName(home, cwd, id string) string
}

// ConversationName returns the name an agent keeps for conversation id, ""
// when the agent keeps none or the conversation has none.
func (a Agent) ConversationName(home, cwd, id string) string {
	n, ok := a.Behaviour.(Namer)
	if !ok || !a.ID.Valid(id) {
		return ""
	}
	return n.ConversationName(home, cwd, id)
}

// CleanName turns a stored name into one line fit to show and to match:
// the same cleaning as a title, and nothing but spaces is no name.
func CleanName(s string) string {
	return strings.TrimSpace(cleanTo(s, nameLen))
}

// nameLen bounds a name as shown and matched; longer names are cut.
const nameLen = 120

// HintNamer is implemented by agents whose exit hint may name a
// conversation by its name instead of its ID.
type HintNamer interface {
	// HintByName reports whether the last exit hint in the raw tail of
	// terminal output names the conversation by its name.
	HintByName(tail []byte) bool
}

// ExitBanner reports whether the tail shows the agent's exit banner above a
// hint that should have named an ID: a hint by name has none to read, and
// is no sign of the hint channel gone silent.
func (a Agent) ExitBanner(tail []byte) bool {
	if !a.BannerShown(tail) {
		return false
	}
	hn, ok := a.Behaviour.(HintNamer)
	return !ok || !hn.HintByName(tail)
}

package harness

import (
	"bytes"
	"time"
)

// Google's Gemini CLI (measured on 0.61.0, e2e/README.md). A bare command
// gets a pinned ID: --session-id creates the session, and fails (exit 42)
// when the ID is there already, so only a fresh ID is ever pinned; the
// resume form is the resume target, pinned as it is. Gemini has no way to
// add a hook for one run: hooks live in its settings files (the user's,
// the project's, or a system file it reads only when root owns it), and
// fleetcom edits none of them. Its evidence is the pinned ID, the exit hint
// and the store; its live state follows its terminal.
//
// GEMINI_CLI_HOME stands for $HOME: the home is $GEMINI_CLI_HOME/.gemini.
// `gemini --resume <id>` finds only the conversations of the directory it
// runs in, so a resume line keeps its cd.
var geminiSpec = &Spec{
	Name:        "gemini",
	Display:     "Gemini CLI",
	HomeVar:     "GEMINI_CLI_HOME",
	HomeDir:     ".gemini",
	HomeVarBase: true,
	ID:          &UUID,
	// Only --resume is accepted; -r is an alternate spelling and stays
	// opaque.
	Resume: Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--session-id", "--session-file", "--list-sessions", "--delete-session",
		"-p", "--prompt", "-i", "--prompt-interactive", "-w", "--worktree", "--acp", "--experimental-acp",
		"-l", "--list-extensions"},
	Proven:  []string{"0.61.0"},
	Banners: []string{"To resume this session:"},
}

// Gemini is the agent.
var Gemini = Agent{Spec: geminiSpec, Behaviour: gemini{}}

type gemini struct{}

// The capabilities gemini has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability. Gemini
// keeps no record of which process runs which session (no Holder) and no
// names (no Namer: 0.61.0 has no /rename).
var _ interface {
	Behaviour
	Correlator
	Titler
	Excerpter
	Finder
	Activer
	Mover
	Diagnoser
} = gemini{}

// Instrument implements Behaviour: a fresh pinned ID for a bare command.
// A new v4 UUID is the only ID ever pinned; a resume target is never given
// to --session-id, which refuses an ID that exists.
func (gemini) Instrument(f Form, run Run) (Instrumentation, error) {
	if f.Resume != "" {
		return Instrumentation{Pinned: f.Resume}, geminiSpec.ValidateID(f.Resume)
	}
	id, err := run.PinID(geminiSpec.ID)
	if err != nil {
		return Instrumentation{}, err
	}
	return Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
}

// geminiHint is Gemini's exit hint, read from the summary box printed at
// exit: `To resume this session: gemini --resume <id>`, with the box's
// borders taken out first (geminiUnboxed), since a narrow terminal wraps
// the hint inside them.
var geminiHint = Hint{Spec: geminiSpec, Words: [][]string{{"--resume"}}, ReadID: geminiWrappedID}

// ScrapeExit implements Behaviour: the last `gemini --resume <id>` of the
// exit box. Gemini prints it after every interactive run, also one quit
// before its first prompt, whose session it deletes at exit: the store, not
// the hint, says whether there is a conversation.
func (gemini) ScrapeExit(tail []byte) string {
	return ScrapeTail(tail, func(text []byte) string { return geminiHint.Last(geminiUnboxed(text)) })
}

// boxBorder is the vertical border of Gemini's exit box (U+2502).
var boxBorder = []byte("│")

// geminiUnboxed turns the box's vertical borders into spaces: at 80
// columns 0.61.0 puts the ID on a line of its own between them, and at 40
// it also breaks the ID itself across two.
func geminiUnboxed(text []byte) []byte {
	return bytes.ReplaceAll(text, boxBorder, []byte(" "))
}

// geminiWrappedID reads an ID at p that the box may have broken across
// lines: a run of ID characters that only begins an ID goes on with the
// run at the start of the next line, as long as together they still begin
// one. A complete ID never takes more characters.
func geminiWrappedID(text []byte, p int, valid func(string) bool) string {
	if id := IDAt(text, p, valid); id != "" {
		return id
	}
	var id []byte
	for range 4 {
		end := p
		for end < len(text) && IDByte(text[end]) {
			end++
		}
		id = append(id, text[p:end]...)
		if valid(string(id)) {
			return string(id)
		}
		if end == p || !geminiSpec.ID.Prefix(string(id), 1) {
			return ""
		}
		// Only spaces, and one line break (CR LF reads as two), before the
		// next piece.
		q, breaks := end, 0
		for q < len(text) && (text[q] == ' ' || text[q] == '\n') {
			if text[q] == '\n' {
				breaks++
			}
			q++
		}
		if breaks == 0 || breaks > 2 {
			return ""
		}
		p = q
	}
	return ""
}

// Exists implements Behaviour: a session file of cwd's folder (any
// folder's, with no cwd) holding a message to resume. The two-line stub a
// resume in a later minute leaves is not one.
func (gemini) Exists(home, cwd, id string) bool {
	_, ok := geminiSession(home, cwd, id)
	return ok
}

// Active implements Activer: the session's lastUpdated, which Gemini moves
// with each message.
func (gemini) Active(home, cwd, id string) time.Time {
	p, ok := geminiSession(home, cwd, id)
	if !ok {
		return time.Time{}
	}
	c, _ := readGeminiChat(p, false)
	return c.active()
}

// Package gemini is fleetcom's knowledge of Google's Gemini CLI: its Spec
// and Behaviour, the exit box its hint is read from, its session files
// (chat.go, file.go: their lines and the project folders they live in),
// discovery (find.go), moves (move.go) and what doctor says of its
// retention settings (doctor.go). It exports one value, Agent, which the
// list (harness/agents) names.
package gemini

import (
	"bytes"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// spec describes Google's Gemini CLI (measured on 0.61.0, e2e/README.md). A
// bare command gets a pinned ID: --session-id creates the session, and fails
// (exit 42) when the ID is there already, so only a fresh ID is ever pinned;
// the resume form is the resume target, pinned as it is. Gemini has no way to
// add a hook for one run: hooks live in its settings files (the user's, the
// project's, or a system file it reads only when root owns it), and fleetcom
// edits none of them. Its evidence is the pinned ID, the exit hint and the
// store; its live state follows its terminal.
//
// GEMINI_CLI_HOME stands for $HOME: the home is $GEMINI_CLI_HOME/.gemini.
// `gemini --resume <id>` finds only the conversations of the directory it
// runs in, so a resume line keeps its cd.
var spec = harness.Spec{
	Name:        "gemini",
	Display:     "Gemini CLI",
	HomeVar:     "GEMINI_CLI_HOME",
	HomeDir:     ".gemini",
	HomeVarBase: true,
	ID:          &harness.UUID,
	// Only --resume is accepted; -r is an alternate spelling and stays
	// opaque.
	Resume: harness.Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--session-id", "--session-file", "--list-sessions", "--delete-session",
		"-p", "--prompt", "-i", "--prompt-interactive", "-w", "--worktree", "--acp", "--experimental-acp",
		"-l", "--list-extensions"},
	Proven:  []string{"0.61.0"},
	Banners: []string{"To resume this session:"},
	Widening: []harness.Widener{
		{Option: "--yolo"}, {Option: "-y"},
		{Option: "--approval-mode", Values: []string{"yolo", "auto_edit"}},
		{Option: "--allowed-tools"},
		{Option: "--skip-trust"},
	},
}

// Agent is Google's Gemini CLI.
var Agent = harness.Agent{Spec: &spec, Behaviour: gemini{}}

type gemini struct{}

// The capabilities gemini has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability. Gemini
// keeps no record of which process runs which session (no Holder) and no
// names (no Namer: 0.61.0 has no /rename).
var _ interface {
	harness.Behaviour
	harness.Correlator
	harness.Follower
	harness.Titler
	harness.Excerpter
	harness.Finder
	harness.Activer
	harness.Mover
	harness.Diagnoser
	harness.Indexer
} = gemini{}

// Instrument implements Behaviour: a fresh pinned ID for a bare command.
// A new v4 UUID is the only ID ever pinned; a resume target is never given
// to --session-id, which refuses an ID that exists.
func (gemini) Instrument(f harness.Form, run harness.Run) (harness.Instrumentation, error) {
	if f.Resume != "" {
		return harness.Instrumentation{Pinned: f.Resume}, spec.ValidateID(f.Resume)
	}
	id, err := run.PinID(spec.ID)
	if err != nil {
		return harness.Instrumentation{}, err
	}
	return harness.Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
}

// hint is Gemini's exit hint, read from the summary box printed at
// exit: `To resume this session: gemini --resume <id>`, with the box's
// borders taken out first (unboxed), since a narrow terminal wraps
// the hint inside them.
var hint = harness.Hint{Spec: &spec, Words: [][]string{{"--resume"}}, ReadID: wrappedID}

// ScrapeExit implements Behaviour: the last `gemini --resume <id>` of the
// exit box. Gemini prints it after every interactive run, also one quit
// before its first prompt, whose session it deletes at exit: the store, not
// the hint, says whether there is a conversation.
func (gemini) ScrapeExit(tail []byte) string {
	return harness.ScrapeTail(tail, func(text []byte) string { return hint.Last(unboxed(text)) })
}

// boxBorder is the vertical border of Gemini's exit box (U+2502).
var boxBorder = []byte("│")

// unboxed turns the box's vertical borders into spaces: at 80
// columns 0.61.0 puts the ID on a line of its own between them, and at 40
// it also breaks the ID itself across two.
func unboxed(text []byte) []byte {
	return bytes.ReplaceAll(text, boxBorder, []byte(" "))
}

// wrappedID reads an ID at p that the box may have broken across
// lines: a run of ID characters that only begins an ID goes on with the
// run at the start of the next line, as long as together they still begin
// one. A complete ID never takes more characters.
func wrappedID(text []byte, p int, valid func(string) bool) string {
	if id := harness.IDAt(text, p, valid); id != "" {
		return id
	}
	var id []byte
	for range 4 {
		end := p
		for end < len(text) && harness.IDByte(text[end]) {
			end++
		}
		id = append(id, text[p:end]...)
		if valid(string(id)) {
			return string(id)
		}
		if end == p || !spec.ID.ValidPrefix(string(id), 1) {
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
	_, ok := sessionPath(home, cwd, id)
	return ok
}

// Warm implements harness.Warmer: the look at the end of a run that
// resumed the session (Exists, Title) then reads on from here.
func (gemini) Warm(home, cwd, id string) {
	sessionOf(home, cwd, id)
}

// Active implements Activer: the session's lastUpdated, which Gemini moves
// with each message.
func (gemini) Active(home, cwd, id string) time.Time {
	_, c, _ := sessionOf(home, cwd, id)
	return c.Active
}

// HeldInDir implements harness.DirHolder: Gemini CLI appends each message
// to its session file and closes it, and keeps no record of which process
// runs which session, so a gemini running in the conversation's directory
// may hold it (its node process names the gemini script; fleetcom's shim
// is named gemini), and so may one out of sight that wrote it lately.
func (gemini) HeldInDir() ([]string, time.Duration) {
	return []string{"gemini"}, 2 * time.Minute
}

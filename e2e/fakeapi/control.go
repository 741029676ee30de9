package fakeapi

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// Two words in what the user types change how the fake answers, for the
// tests of a CLI's live state (working, waiting, needs-you):
//
//   - HoldWord: the reply streams its first piece and then waits, with the
//     request open, until the test calls Release (or holdMax has passed, so
//     a forgotten hold never hangs a CLI for good). The CLI is working the
//     whole time, for as long as the test needs to look.
//   - PermitWord: the reply is a call of the CLI's shell tool, asking to run
//     a command the CLI asks the user's permission for (Claude's Bash,
//     Codex's exec_command with escalated permissions, Copilot's bash,
//     Gemini's run_shell_command, Grok's run_terminal_command).
//     Once the tool's result, or its refusal, comes back the answer is
//     text, as usual.
//
// Only the last message counts, and only when the user typed it: a CLI's
// side requests (titles, summaries) and the follow-up after a tool result
// are never held and never call a tool.
const (
	HoldWord   = "HOLD"
	PermitWord = "PERMIT"
	holdMax    = 3 * time.Minute
)

// PermitFile is the file the permitted command creates in the CLI's
// working directory.
const PermitFile = "fakeapi-permitted"

// permitCommand is the shell command a PermitWord turn asks to run.
const permitCommand = "touch " + PermitFile

// permitCommandGrok is the command asked of Grok, which runs a bare touch
// without asking.
const permitCommandGrok = "rm -f " + PermitFile + ".old && " + permitCommand

// gate holds streams until Release.
type gate struct {
	mu   sync.Mutex
	open chan struct{}
	held int
}

// wait holds the caller until Release, holdMax, or the client going away.
func (s *Server) hold(r *http.Request) {
	s.gate.mu.Lock()
	if s.gate.open == nil {
		s.gate.open = make(chan struct{})
	}
	open := s.gate.open
	s.gate.held++
	s.gate.mu.Unlock()
	defer func() {
		s.gate.mu.Lock()
		s.gate.held--
		s.gate.mu.Unlock()
	}()
	t := time.NewTimer(holdMax)
	defer t.Stop()
	select {
	case <-open:
	case <-t.C:
	case <-r.Context().Done():
	}
}

// Release lets every held reply finish.
func (s *Server) Release() {
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	if s.gate.open != nil {
		close(s.gate.open)
	}
	s.gate.open = make(chan struct{})
}

// Held is how many replies are being held now.
func (s *Server) Held() int {
	s.gate.mu.Lock()
	defer s.gate.mu.Unlock()
	return s.gate.held
}

// typed reports whether word is one of the words of text, which the user
// typed (a text the CLI injected starts with '<').
func typed(text, word string) bool {
	t := strings.TrimSpace(unwrapQuery(text))
	if strings.HasPrefix(t, "<") {
		return false
	}
	for _, f := range strings.Fields(t) {
		if strings.Trim(f, ".,;:!?\"'()[]{}") == word {
			return true
		}
	}
	return false
}

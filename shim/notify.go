package shim

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/internal/bounded"
)

// notifier tells the user of a notice, in the ways [notify] chose: the
// desktop's notifier, the run's own terminal, a program of the user's. It
// never blocks the run: programs start in the background and are reaped
// there, terminal bytes go through the PTY loop (Aside).
type notifier struct {
	rules    fleet.NoticeRules
	desktop  bool
	terminal string
	command  []string
	aside    *Aside // nil: no terminal the shim can write to safely
	mux      string // the multiplexer the run's terminal is in (multiplexer)
	home     string
	warn     func(error)
}

// notifyWait bounds a notifier program's run.
const notifyWait = 30 * time.Second

// newNotifier returns the notifier [notify] asks for, nil when it is off.
func newNotifier(n config.Notify, aside *Aside, warn func(error)) *notifier {
	if !n.On() {
		return nil
	}
	home, _ := os.UserHomeDir()
	if h := os.Getenv("HOME"); h != "" {
		home = h
	}
	return &notifier{rules: fleet.NoticeRules{After: n.After, Every: n.Every}, desktop: n.Desktop,
		terminal: n.Terminal, command: n.Command, aside: aside, mux: multiplexer(os.Getenv), home: home, warn: warn}
}

// send tells one notice every way chosen; it does not wait for anything.
func (n *notifier) send(x fleet.Notice) {
	title, body := clean(x.Title()), clean(x.Body(n.home))
	if n.desktop {
		if argv := desktopArgv(runtime.GOOS, title, body); argv != nil {
			n.start(argv, nil)
		}
	}
	if n.terminal != "" && n.aside != nil {
		n.aside.Write(passThrough(n.mux, terminalNotice(n.terminal, title, body)))
	}
	if len(n.command) > 0 {
		payload, _ := json.Marshal(x)
		n.start(n.command, append(payload, '\n'))
	}
}

// start runs argv in the background, with stdin from the given bytes (or
// nothing), its output discarded, and reaps it: in a process group of its
// own, killed whole after notifyWait (bounded.Start).
func (n *notifier) start(argv []string, stdin []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), notifyWait)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	if err := bounded.Start(cmd); err != nil {
		cancel()
		n.warn(err)
		return
	}
	go func() {
		defer cancel()
		bounded.Wait(cmd)
	}()
}

// desktopArgv is the desktop notifier's command for a system; nil where
// there is none.
func desktopArgv(goos, title, body string) []string {
	switch goos {
	case "darwin":
		return []string{"osascript", "-e", "display notification " + appleString(body) +
			" with title " + appleString(title)}
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return []string{"notify-send", "--app-name=fleetcom", "--", title, body}
	}
	return nil
}

// appleString writes s as an AppleScript string literal.
func appleString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// terminalNotice is the sequence that makes the terminal itself tell:
// OSC 9 (iTerm2, WezTerm, Windows Terminal, kitty…), OSC 777 (foot, urxvt,
// Ghostty…) or the bell.
func terminalNotice(kind, title, body string) []byte {
	switch kind {
	case "osc9":
		return []byte("\x1b]9;" + title + ": " + body + "\x07")
	case "osc777":
		return []byte("\x1b]777;notify;" + strings.ReplaceAll(title, ";", ",") + ";" + body + "\x07")
	}
	return []byte("\x07")
}

// multiplexer is what the run's terminal is inside, as its environment
// says: "tmux", GNU "screen", or "" for a terminal of its own.
func multiplexer(getenv func(string) string) string {
	switch {
	case getenv("TMUX") != "":
		return "tmux"
	case getenv("STY") != "":
		return "screen"
	}
	return ""
}

// screenPiece is the most of a sequence one DCS string takes to GNU
// screen, which keeps at most 768 bytes of one.
const screenPiece = 700

// passThrough wraps an OSC notice so that the multiplexer the run is in
// hands it to the terminal outside, the one that can show it: a
// multiplexer reads a bare OSC 9 or 777 as meant for itself, and drops it.
//   - tmux passes on what comes in ESC P tmux; … ESC \, every ESC inside
//     doubled, and only with its allow-passthrough option on (tmux 3.3 and
//     later; `on` for a pane on screen, `all` for any, tmux 3.4 and later);
//   - GNU screen passes on what comes in ESC P … ESC \, in pieces it keeps
//     whole.
//
// The bell is the multiplexer's own business (its bell-action), and is not
// wrapped. The notice holds no ESC \ of its own: its text is cleaned of
// control characters and it ends with BEL.
func passThrough(mux string, seq []byte) []byte {
	if len(seq) < 2 || seq[0] != 0x1b || seq[1] != ']' {
		return seq
	}
	switch mux {
	case "tmux":
		b := []byte("\x1bPtmux;")
		b = append(b, bytes.ReplaceAll(seq, []byte{0x1b}, []byte{0x1b, 0x1b})...)
		return append(b, "\x1b\\"...)
	case "screen":
		var b []byte
		for len(seq) > 0 {
			n := min(len(seq), screenPiece)
			b = append(append(append(b, "\x1bP"...), seq[:n]...), "\x1b\\"...)
			seq = seq[n:]
		}
		return b
	}
	return seq
}

// clean makes a text safe to show anywhere: control characters (an escape
// or a bell in a directory name) become spaces, and it is cut to a sane
// length.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

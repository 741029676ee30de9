// Package msg formats fleetcom's messages to the user, for both programs
// (fleetcom and fleetcom-shim): one line each on stderr, "fleetcom: error:
// …", "fleetcom: warning: …" or "fleetcom: hint: …", lowercase, with the
// control characters of any text read from files escaped.
package msg

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Say writes one message of kind (error, warning, hint) to w.
func Say(w io.Writer, kind, text string) {
	text = strings.TrimSuffix(text, ".")
	fmt.Fprintf(w, "fleetcom: %s: %s\n", kind, Printable(text, true))
}

// Printable escapes the control characters of s (ESC, CR, BEL, C1 codes,
// bidi overrides…), keeping newlines when lines is set. Messages carry text
// read from files (a directory a tool recorded, a folder name), which must
// never reach the terminal as commands.
func Printable(s string, lines bool) string {
	// Printable ASCII, most of any text, is looked at a byte at a time.
	i := 0
	for i < len(s) && ' ' <= s[i] && s[i] < 0x7f {
		i++
	}
	clean := true
	for _, r := range s[i:] {
		if needsEscape(r, lines) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if needsEscape(r, lines) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func needsEscape(r rune, lines bool) bool {
	if ' ' <= r && r < 0x7f {
		// Printable ASCII, most of any text: no table to look in.
		return false
	}
	if r == '\n' {
		return !lines
	}
	return unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Bidi_Control, r)
}

// Hinter is an error that knows the command that fixes it. A hint of
// several lines is several hints, each said on its own line.
type Hinter interface{ Hint() string }

// Report writes err as an error and, when it has one, its hints.
func Report(w io.Writer, err error) {
	Say(w, "error", err.Error())
	var h Hinter
	if errors.As(err, &h) && h.Hint() != "" {
		for _, line := range strings.Split(h.Hint(), "\n") {
			Say(w, "hint", line)
		}
	}
}

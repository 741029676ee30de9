package claude

import (
	"bytes"
	"encoding/json"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Claude Code names a conversation with `--name NAME` (`-n`) at launch or
// `/rename NAME` inside it (measured on 2.1.197 and 2.1.332): each writes a
// {"type":"custom-title","customTitle":NAME,"sessionId":…} line to the
// transcript, followed by an "agent-name" line, and Claude appends both
// again as the session goes on, so the latest name is near the end. Claude
// itself reads only the head and the tail of a transcript for its session
// list; so does fleetcom: the last custom-title line of the tail wins, else
// the last of the head (a name given at launch, in a transcript that grew
// since).

// nameWindow is how much of the head and of the tail is read.
const nameWindow = 64 << 10

// ConversationName implements Namer.
func (claude) ConversationName(home, cwd, id string) string {
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return ""
	}
	f, err := safe.Open(p, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	size := fi.Size()
	if size > nameWindow {
		tail := make([]byte, nameWindow)
		if n, _ := f.ReadAt(tail, size-nameWindow); n > 0 {
			// The first line of the window is likely cut: skip it.
			if i := bytes.IndexByte(tail[:n], '\n'); i >= 0 {
				if name, ok := lastName(tail[i+1 : n]); ok {
					return name
				}
			}
		}
	}
	head := make([]byte, min(size, nameWindow))
	n, _ := f.ReadAt(head, 0)
	name, _ := lastName(head[:n])
	return name
}

// lastName returns the name of the last complete custom-title line in
// data; ok is false when there is none. An empty name (a name cleared)
// counts as a line found.
func lastName(data []byte) (string, bool) {
	name, ok := "", false
	for len(data) > 0 {
		line := data
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break // still being written
		}
		line, data = data[:i], data[i+1:]
		if !bytes.Contains(line, []byte(`"custom-title"`)) {
			continue
		}
		var l struct {
			Type        string `json:"type"`
			CustomTitle string `json:"customTitle"`
		}
		if json.Unmarshal(line, &l) == nil && l.Type == "custom-title" {
			name, ok = harness.CleanName(l.CustomTitle), true
		}
	}
	return name, ok
}

// Claude Code 2.1.197 prints a named conversation's exit hint by its name,
// quoted: `claude --resume "wren work"` under "Resume this session with:"
// (measured; 2.1.332 prints the ID). Such a hint carries no ID to read, and
// seeing the banner without one is not the hint channel gone silent.

// HintByName implements HintNamer.
func (claude) HintByName(tail []byte) bool {
	line, ok := harness.BannerLine(tail, hint.Banner)
	if !ok {
		return false
	}
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, " "), []byte("claude --resume \""))
	return ok && len(rest) > 1 && rest[len(rest)-1] == '"'
}

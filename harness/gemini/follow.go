package gemini

import "time"

// Followed implements harness.Follower. After /clear Gemini CLI goes on in
// a new session file of the project, with a new ID, and says so only in
// its exit box. A turn writes to the file of the conversation it belongs
// to, so once a turn has ended: if cur's file was written during it, the
// run is still in cur; otherwise the one session file written during it
// that the run could have started (begun after its spawn, with a prompt,
// not a sub-agent's) is where it went. Two such files (another Gemini
// taking a turn in the same project at the same moment) say nothing.
func (gemini) Followed(home, cwd, cur string, spawn, turn time.Time) string {
	found := ""
	for _, path := range writtenSince(home, cwd, turn) {
		h, ok := readHead(path)
		if !ok {
			continue
		}
		if h.SessionID == cur {
			return "" // the turn went to cur
		}
		if !begunSince(h, spawn) {
			continue
		}
		if _, ok := readConversation(path); !ok {
			continue
		}
		if found != "" && found != h.SessionID {
			return ""
		}
		found = h.SessionID
	}
	return found
}

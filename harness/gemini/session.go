package gemini

import (
	"os"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// session is what a session file tells of the conversation it holds,
// without its text: whose it is, its title (the summary, else the first
// prompt), whether a sub-agent's, and its times.
type session struct {
	ID              string
	Title           string
	Side            bool
	Started, Active time.Time
}

// readConversation reads the conversation a session file holds: false for
// a file that is not a session, or holds no prompt or reply (after its
// rewinds). It is the index's reader, which decodes no tool output: the
// replay decoded every line, and a 100 MB session of tool output took
// seconds per look, where `resume` and the shim's exit look several times.
// Those looks come one after another in one process, so the answer is
// kept for as long as the file's size and time stay.
func readConversation(path string) (session, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return session{}, false
	}
	key := sessionKey{path: path, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	sessionMemo.Lock()
	got, ok := sessionMemo.m[key]
	sessionMemo.Unlock()
	if ok {
		return got.s, got.ok
	}
	var s session
	d, _, err := gemini{}.Read(path, harness.Cursor{}, harness.Limits{Line: harness.MaxLine})
	found := err == nil && len(d) == 1 && d[0].Messages > 0
	if found {
		l := d[0]
		s = session{ID: l.ID, Title: l.Title, Side: l.Side, Started: l.Started, Active: l.Active}
	}
	sessionMemo.Lock()
	if sessionMemo.m == nil || len(sessionMemo.m) >= 256 {
		sessionMemo.m = map[sessionKey]memoized{}
	}
	sessionMemo.m[key] = memoized{s, found}
	sessionMemo.Unlock()
	return s, found
}

type sessionKey struct {
	path        string
	size, mtime int64
}

type memoized struct {
	s  session
	ok bool
}

var sessionMemo struct {
	sync.Mutex
	m map[sessionKey]memoized
}

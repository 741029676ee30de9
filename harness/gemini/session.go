package gemini

import (
	"bytes"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
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
//
// A process keeps, per file, where its last read stopped and the reader's
// state there. A file unchanged since is not read at all; a file that grew
// (Gemini appends every message, rewind and title to it) is read on from
// there, as the index reads it, so a look at a session of 100 MB that
// gained a turn reads the turn. A file that shrank or was replaced, or
// whose bytes before that place are not the ones read there, is read from
// its start.
func readConversation(path string) (session, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return session{}, false
	}
	var ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = st.Ino
	}
	now := fileState{ino: ino, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	sessionMemo.Lock()
	last, ok := sessionMemo.m[path]
	sessionMemo.Unlock()
	if ok && last.fileState == now {
		return last.s, last.ok
	}
	from, title := harness.Cursor{}, ""
	if ok && last.ino == now.ino && now.size > last.size && bytes.Equal(edgeOf(path, last.cur.Offset), last.edge) {
		from, title = last.cur, last.title
	}
	d, next, err := gemini{}.Read(path, from, harness.Limits{Line: harness.MaxLine})
	if err != nil {
		return session{}, false
	}
	if len(d) == 1 && (d[0].Retitle || title == "") && d[0].Title != "" {
		title = d[0].Title
	}
	s, found := fromState(next.State, title)
	sessionMemo.Lock()
	if sessionMemo.m == nil || len(sessionMemo.m) >= 256 {
		sessionMemo.m = map[string]memoized{}
	}
	sessionMemo.m[path] = memoized{fileState: now, cur: next, edge: edgeOf(path, next.Offset), title: title, s: s, ok: found}
	sessionMemo.Unlock()
	return s, found
}

// fromState is the conversation a reader's state says its file holds, as
// Read says it of the whole file: the session the file began with, a
// prompt or reply seen and some left after every rewind. Its title is
// what the reads found (the state keeps only that one was).
func fromState(state []byte, title string) (session, bool) {
	s, ok := decodeGeminiState(state)
	if !ok || s.flags&(gsSession|gsOther|gsHad) != gsSession|gsHad {
		return session{}, false
	}
	if _, msgs := s.totals(); msgs == 0 {
		return session{}, false
	}
	return session{ID: s.id, Title: title, Side: s.flags&gsSide != 0,
		Started: geminiMillis(s.start), Active: geminiMillis(s.last)}, true
}

// edgeOf is what the file at path holds just before off: up to 64 bytes,
// the end of the last line a read took in.
func edgeOf(path string, off int64) []byte {
	n := min(off, 64)
	if n <= 0 {
		return nil
	}
	f, err := safe.Open(path, safe.NoFollow)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off-n); err != nil {
		return nil
	}
	return b
}

// fileState is a file as a read found it.
type fileState struct {
	ino         uint64
	size, mtime int64
}

type memoized struct {
	fileState
	cur   harness.Cursor
	edge  []byte // edgeOf(cur.Offset) then
	title string // the title the reads found, kept while no conversation is left
	s     session
	ok    bool
}

var sessionMemo struct {
	sync.Mutex
	m map[string]memoized
}

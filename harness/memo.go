package harness

import (
	"os"
	"sync"
)

// LastRead keeps a look's last answer about one file while the file's size
// and mtime stay: a shim's exit asks the same question of a conversation's
// file twice (the record's title, and the conversation's when it changed),
// and a file of megabytes is then read once. A file gone is read again
// (by read, which says what a missing file gives).
type LastRead[T any] struct {
	mu  sync.Mutex
	key lastKey
	v   T
}

type lastKey struct {
	path        string
	size, mtime int64
}

// Of returns read(path), or the answer it gave last for path as the file
// is now.
func (m *LastRead[T]) Of(path string, read func(path string) T) T {
	fi, err := os.Stat(path)
	if err != nil {
		return read(path)
	}
	key := lastKey{path, fi.Size(), fi.ModTime().UnixNano()}
	m.mu.Lock()
	if m.key == key {
		v := m.v
		m.mu.Unlock()
		return v
	}
	m.mu.Unlock()
	v := read(path)
	m.mu.Lock()
	m.key, m.v = key, v
	m.mu.Unlock()
	return v
}

package codex

import (
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Codex keeps thread names in <home>/session_index.jsonl, one line per
// naming, {"id","thread_name","updated_at"}, appended: the last line of an
// ID is its name (measured on 0.171.0). Codex names a thread itself after
// its first turn, from a title the model writes, and `/rename` in the TUI
// appends the user's own; `codex archive`, `delete` and `unarchive` take
// either name, as its exit text ("Or run codex resume and select <name>")
// shows it. fleetcom reads it as the thread's name, whoever gave it.

// maxNamesFile bounds the index read: a line per naming is small.
const maxNamesFile = 16 << 20

// threadNames caches the parsed index of one home while the file does not
// change: a list reads the name of every Codex conversation it shows.
var threadNames struct {
	sync.Mutex
	path  string
	size  int64
	mtime time.Time
	names map[string]string
}

// ConversationName implements Namer.
func (codex) ConversationName(home, _ string, id string) string {
	return readThreadNames(filepath.Join(home, "session_index.jsonl"))[id]
}

// readThreadNames returns the names session_index.jsonl holds, by thread ID.
func readThreadNames(path string) map[string]string {
	f, err := safe.Open(path, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	threadNames.Lock()
	defer threadNames.Unlock()
	if threadNames.path == path && threadNames.size == fi.Size() && threadNames.mtime.Equal(fi.ModTime()) {
		return threadNames.names
	}
	names := map[string]string{}
	if fi.Size() <= maxNamesFile {
		harness.ScanLines(f, func(line []byte) bool {
			var l struct {
				ID   string `json:"id"`
				Name string `json:"thread_name"`
			}
			if json.Unmarshal(line, &l) == nil && spec.ID.Valid(l.ID) {
				if n := harness.CleanName(l.Name); n != "" {
					names[l.ID] = n
				} else {
					delete(names, l.ID)
				}
			}
			return true
		})
	}
	threadNames.path, threadNames.size, threadNames.mtime, threadNames.names = path, fi.Size(), fi.ModTime(), names
	return names
}

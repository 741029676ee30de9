package index

import (
	"os"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// Stats is what `fleetcom index --status` says of an index.
type Stats struct {
	// Dir is where the index is; "" for one in memory.
	Dir string
	// Conversations are those the index holds, Stored those in their
	// agents' stores now, Recorded those fleetcom has a record of.
	Conversations, Stored, Recorded int
	// PerTool counts the conversations in their agents' stores, by tool.
	PerTool map[string]int
	// Files are the files read; Text the bytes of text indexed.
	Files int
	Text  int64
	// Size is the bytes the index takes on disk.
	Size int64
	// Refreshed and Swept are the last refresh and the last full sweep.
	Refreshed, Swept time.Time
	// TextOn says whether text is indexed.
	TextOn bool
}

// Stats reports what the index holds.
func (x *Index) Stats() (Stats, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	st := Stats{Dir: x.dir, PerTool: map[string]int{}, TextOn: x.meta("text") != 0}
	err := x.db.query(`SELECT tool, count(*), sum(stored), sum(rec IS NOT NULL), sum(textlen) FROM conv GROUP BY tool`, nil, func(s *sqlite3.Stmt) error {
		n, stored := s.ColumnInt(1), s.ColumnInt(2)
		st.Conversations += n
		st.Stored += stored
		st.Recorded += s.ColumnInt(3)
		st.Text += s.ColumnInt64(4)
		if stored > 0 {
			st.PerTool[s.ColumnText(0)] = stored
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	files, err := x.db.int64Of(`SELECT count(*) FROM source`)
	if err != nil {
		return st, err
	}
	st.Files = int(files)
	st.Refreshed, st.Swept = ms(x.meta("refreshed")), ms(x.meta("swept"))
	if x.dir != "" {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if fi, err := os.Stat(x.path() + suffix); err == nil {
				st.Size += fi.Size()
			}
		}
	}
	return st, nil
}

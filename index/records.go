package index

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/store"
)

// refreshRecords brings the index's copy of fleetcom's records up to date:
// the ones that changed since the last refresh, or all of them when the
// store cannot say which. The folders of a changed record's directory are
// looked at too: its conversation may have just appeared.
func (x *Index) refreshRecords(w *walk) error {
	r := x.o.Records
	if r == nil {
		return nil
	}
	mark := x.metaText("records")
	keys, next, all, err := r.Changed(mark)
	if err != nil {
		x.warnOnce(err)
		all = true
	}
	if !all && len(keys) == 0 {
		return nil
	}
	forgotten := r.Forgotten()
	return x.db.tx(func() error {
		if all {
			recs, err := r.All()
			if err != nil {
				return err
			}
			// Oldest first, as readAll reads files: a conversation first
			// known from its record then has a rowid that follows its age
			// too, which search's ranking of the newest matches needs, and
			// its text, written after the transcript is read, reaches the
			// full-text table in rowid order (a rowid lower than the last
			// one makes FTS5 write out all it has gathered, every time).
			slices.SortFunc(recs, func(a, b store.Record) int { return store.NewestFirst(b, a) })
			var prev []Key
			if err := x.db.query(`SELECT tool, id FROM conv WHERE rec IS NOT NULL`, nil, func(s *sqlite3.Stmt) error {
				prev = append(prev, Key{s.ColumnText(0), s.ColumnText(1)})
				return nil
			}); err != nil {
				return err
			}
			have := map[Key]bool{}
			for _, rec := range recs {
				if err := x.putRecord(rec); err != nil {
					return err
				}
				have[Key{rec.Tool, rec.ID}] = true
				w.sc.Dirs = append(w.sc.Dirs, rec.Cwd)
			}
			for _, k := range prev {
				if !have[k] {
					if err := x.dropRecord(k.Tool, k.ID); err != nil {
						return err
					}
				}
			}
			if err := x.db.exec(`UPDATE conv SET forgotten = 0 WHERE forgotten`); err != nil {
				return err
			}
			for k := range forgotten {
				tool, id, _ := strings.Cut(k, "-")
				if err := x.db.exec(`UPDATE conv SET forgotten = 1 WHERE tool = ? AND id = ?`, tool, id); err != nil {
					return err
				}
			}
		} else {
			for _, k := range keys {
				tool, id, ok := strings.Cut(k, "-")
				if !ok {
					continue
				}
				rec, found, err := r.Get(tool, id)
				if err != nil {
					x.warnOnce(err)
					continue
				}
				if found {
					if err := x.putRecord(rec); err != nil {
						return err
					}
					w.sc.Dirs = append(w.sc.Dirs, rec.Cwd)
				} else if err := x.dropRecord(tool, id); err != nil {
					return err
				}
				if err := x.db.exec(`UPDATE conv SET forgotten = ? WHERE tool = ? AND id = ?`, forgotten[k], tool, id); err != nil {
					return err
				}
			}
		}
		return x.setMeta("records", next)
	})
}

// putRecord stores one record with its conversation.
func (x *Index) putRecord(r store.Record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var ended int64
	if r.Ended != nil {
		ended = r.Ended.UnixMilli()
	}
	return x.db.exec(`INSERT INTO conv(tool, id, cwd, home, rec, ractive, rended, rupdated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(tool, id) DO UPDATE SET cwd = excluded.cwd, rec = excluded.rec, ractive = excluded.ractive,
			rended = excluded.rended, rupdated = excluded.rupdated,
			home = CASE WHEN conv.home = '' THEN excluded.home ELSE conv.home END`,
		r.Tool, r.ID, r.Cwd, r.Home, string(data), r.Activity().UnixMilli(), ended, r.Updated.UnixMilli())
}

// dropRecord takes note that a conversation's record is gone: the
// conversation stays while its agent's store holds it.
func (x *Index) dropRecord(tool, id string) error {
	if err := x.db.exec(`DELETE FROM conv WHERE tool = ? AND id = ? AND NOT stored`, tool, id); err != nil {
		return err
	}
	var scwd string
	var rowid int64
	found, err := x.db.one(`SELECT rowid, scwd FROM conv WHERE tool = ? AND id = ?`, []any{tool, id}, func(s *sqlite3.Stmt) {
		rowid, scwd = s.ColumnInt64(0), s.ColumnText(1)
	})
	if err != nil || !found {
		return err
	}
	return x.db.exec(`UPDATE conv SET rec = NULL, ractive = 0, rended = 0, rupdated = 0, cwd = ? WHERE rowid = ?`, x.physical(scwd), rowid)
}

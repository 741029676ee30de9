package harness

import (
	"encoding/json"
	"fmt"
)

// opencodeQueryDB runs a query through OpenDB and returns its rows as
// sqlite3 -json prints them, each column under its name in cols.
func opencodeQueryDB(db, query string, cols []string) ([]byte, error) {
	q, done, err := OpenDB(db)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errOpencodeUnread, db, err)
	}
	defer done()
	var rows []map[string]any
	size := 0
	err = q.Query(query, nil, func(row []any) error {
		if len(row) != len(cols) {
			return fmt.Errorf("%d columns, not %d", len(row), len(cols))
		}
		r := make(map[string]any, len(cols))
		for i, c := range cols {
			r[c] = row[i]
			if s, ok := row[i].(string); ok {
				size += len(s)
			}
		}
		if size > opencodeMaxOutput {
			return fmt.Errorf("its answer is too long")
		}
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %s", errOpencodeUnread, db, CleanTitle(err.Error()))
	}
	return json.Marshal(rows)
}

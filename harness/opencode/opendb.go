package opencode

import (
	"encoding/json"
	"fmt"
	"github.com/fleetcom/fleetcom/harness"
)

// queryDB runs a query through harness.OpenDB and returns its rows as
// sqlite3 -json prints them, each column under its name in cols.
func queryDB(db, query string, cols []string) ([]byte, error) {
	q, done, err := harness.OpenDB(db)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errUnread, db, err)
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
		if size > maxOutput {
			return fmt.Errorf("its answer is too long")
		}
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %s", errUnread, db, harness.CleanTitle(err.Error()))
	}
	return json.Marshal(rows)
}

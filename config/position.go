package config

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// A bad config.toml is reported with where it is bad: the decoder's line and
// column for a syntax error, and for a setting fleetcom refuses (unknown, or
// of the wrong type) the line that sets it.

// positioned prefixes err with the line (and column) it is about.
func positioned(err error, data []byte, table, key string) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if row > 0 {
			return fmt.Errorf("line %d, column %d: %s", row, col, msg)
		}
		return errors.New(msg)
	}
	if line := locate(data, table, key); line > 0 {
		return fmt.Errorf("line %d: %w", line, err)
	}
	return err
}

// settingError is a refused setting: table.key (table "" for a top-level
// key or table), which locate looks for.
type settingError struct {
	table, key string
	err        error
}

func (e *settingError) Error() string { return e.err.Error() }
func (e *settingError) Unwrap() error { return e.err }

// refuse wraps a refusal of table.key.
func refuse(table, key string, err error) error { return &settingError{table, key, err} }

// locate returns the 1-based line that sets key in table ("" for the top
// level, where key may also name a table), or 0 when no line plainly does:
// a header "[table]" followed by a line "key = …", a dotted "table.key = …"
// at the top, or a header "[key]". Quoted keys and inline tables are not
// looked into.
func locate(data []byte, table, key string) int {
	current := ""
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if strings.HasPrefix(line, "[") {
			name := strings.TrimSpace(strings.Trim(strings.SplitN(line, "#", 2)[0], "[] \t"))
			if table == "" && name == key {
				return i + 1
			}
			current = name
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		switch {
		case current == table && k == key,
			current == "" && table != "" && k == table+"."+key,
			current == "" && table == "" && (k == key || strings.HasPrefix(k, key+".")):
			return i + 1
		}
	}
	return 0
}

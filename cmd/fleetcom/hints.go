package main

import (
	"errors"
	"fmt"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// movedHint is the hint for a directory with no conversation when records
// belong to a directory of the same name, or beside it, that no longer
// exists: the project was probably renamed or moved, and `move` brings its
// conversations along. "" when nothing suggests that.
func movedHint(cat *catalog.Catalog, dir string) string {
	gone := cat.Vanished(dir)
	if len(gone) == 0 {
		return ""
	}
	h := fmt.Sprintf("conversations are recorded for %s, which no longer exists; if the project moved here, run 'fleetcom move --from %s --to %s'",
		gone[0], safe.Quote(gone[0]), safe.Quote(dir))
	if len(gone) > 1 {
		h += fmt.Sprintf(" (%d more such directories: 'fleetcom list --all')", len(gone)-1)
	}
	return h
}

// withMovedHint gives a "nothing here" error of dir the moved hint, when
// there is one.
func withMovedHint(err error, cat *catalog.Catalog, dir string) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Kind != catalog.NotFound {
		return err
	}
	if h := movedHint(cat, dir); h != "" {
		return &catalog.Error{Kind: ce.Kind, Msg: ce.Msg, Next: h}
	}
	return err
}

package catalog

import (
	"os"
	"path/filepath"
)

// Vanished returns the directories that records belong to and that no
// longer exist, newest activity first: the trace a renamed or moved project
// leaves, which `fleetcom move --from OLD --to NEW` follows. Only what may
// have been the same project as dir is returned: a directory with dir's
// name (moved elsewhere) or beside it (renamed in place).
func (c *Catalog) Vanished(dir string) []string {
	x, err := c.index(dir)
	if err != nil {
		return nil
	}
	dirs, err := x.RecordDirs()
	if err != nil {
		return nil
	}
	var out []string
	for _, old := range dirs {
		if old == dir || !filepath.IsAbs(old) {
			continue
		}
		if filepath.Base(old) != filepath.Base(dir) && filepath.Dir(old) != filepath.Dir(dir) {
			continue
		}
		if _, err := os.Lstat(old); os.IsNotExist(err) {
			out = append(out, old)
		}
	}
	return out
}

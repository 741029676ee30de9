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
	if c.st == nil {
		return nil
	}
	recs, err := c.st.All()
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		old := r.Cwd
		if seen[old] || old == dir || !filepath.IsAbs(old) {
			continue
		}
		seen[old] = true
		if filepath.Base(old) != filepath.Base(dir) && filepath.Dir(old) != filepath.Dir(dir) {
			continue
		}
		if _, err := os.Lstat(old); os.IsNotExist(err) {
			out = append(out, old)
		}
	}
	return out
}

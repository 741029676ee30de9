package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// maxClaim bounds a claimed file read back: they are a path or so long.
const maxClaim = 64 << 10

// claim makes the files an agent needs before a conversation can be found
// in its new place (harness.Claim): each only where there is none, created
// exclusively, so that a claim the agent makes at the same moment is never
// overwritten; one that holds the same bytes already is fine, one that
// holds others a refusal. undo removes what it made, and the folders it
// made for them.
func claim(claims []harness.Claim) (undo func(), err error) {
	var files []string
	var dirs [][]string
	undo = func() {
		for i := len(files) - 1; i >= 0; i-- {
			os.Remove(files[i])
			unmake(dirs[i])
		}
	}
	for _, c := range claims {
		made, err := mkdirs(filepath.Dir(c.Path))
		if err != nil {
			undo()
			return nil, err
		}
		f, err := os.OpenFile(c.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			got, rerr := safe.ReadFile(c.Path, maxClaim, safe.NoFollow)
			if rerr != nil || !bytes.Equal(got, c.Data) {
				undo()
				return nil, fmt.Errorf("%s belongs to another directory", c.Path)
			}
			continue
		}
		if err != nil {
			unmake(made)
			undo()
			return nil, err
		}
		files, dirs = append(files, c.Path), append(dirs, made)
		_, err = f.Write(c.Data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			undo()
			return nil, err
		}
	}
	return undo, nil
}

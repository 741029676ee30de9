package shim

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Hooks and notifiers run outside the shim, so they need stable paths: each
// instrumented run gets a private namespace <root>/<pid>-<nonce> (0700)
// holding the hook settings, the notifier script and its capture file. The
// nonce keeps concurrent shims and reused pids apart. The root must be a
// directory of ours that nobody else can write to; anything else is refused
// and the run goes uninstrumented.

// Root names the capture-asset root and whether the user chose it.
type Root struct {
	Dir      string
	Explicit bool // from FLEETCOM_RUNTIME_DIR rather than a default
}

// namespace is one run's capture namespace.
type namespace struct {
	dir     string
	capture string
}

// openRoot makes sure the root exists and is private to us.
func openRoot(r Root) error {
	if r.Dir == "" {
		return errors.New("no runtime directory")
	}
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return fmt.Errorf("create runtime directory: %w", err)
	}
	return checkPrivate(r.Dir)
}

// checkPrivate refuses a directory that is a symlink, not ours, or writable
// by group or others.
func checkPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("runtime directory: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("runtime directory %s is a symlink", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("runtime directory %s is not a directory", dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("runtime directory %s belongs to uid %d", dir, st.Uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("runtime directory %s is writable by others (mode %04o)", dir, fi.Mode().Perm())
	}
	return nil
}

// newNamespace creates a namespace under root with its assets installed.
// Namespaces left by shims that died are removed on the way.
func newNamespace(root Root, assets []harness.Asset) (*namespace, error) {
	if err := openRoot(root); err != nil {
		return nil, err
	}
	sweepDead(root.Dir)
	var dir string
	for attempt := 0; ; attempt++ {
		// The nonce only has to differ between shims and across pid reuse
		// (Mkdir refuses an existing name), not to be secret.
		dir = filepath.Join(root.Dir, strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(rand.Uint64()&(1<<48-1)|1<<44, 16))
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) || attempt > 3 {
			return nil, fmt.Errorf("create capture namespace: %w", err)
		}
	}
	ns := &namespace{dir: dir, capture: filepath.Join(dir, "task-"+filepath.Base(dir)+"-1.json")}
	for _, a := range assets {
		if err := safe.WriteFile(filepath.Join(dir, a.Name), a.Data, a.Mode); err != nil {
			ns.remove()
			return nil, err
		}
	}
	f, err := os.OpenFile(ns.capture, os.O_CREATE|os.O_EXCL|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		ns.remove()
		return nil, fmt.Errorf("create capture file: %w", err)
	}
	f.Close()
	return ns, nil
}

// remove deletes the namespace.
func (ns *namespace) remove() {
	if ns != nil {
		os.RemoveAll(ns.dir)
	}
}

// sweepDead removes namespaces whose shim is gone. Only names of the shape
// <pid>-<hex> are touched; every other entry of the root stays.
func sweepDead(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		pidText, nonce, ok := strings.Cut(e.Name(), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || !e.IsDir() || !isHex(nonce) {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

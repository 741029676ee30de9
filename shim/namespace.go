package shim

import (
	"crypto/sha256"
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

// Hooks and notifiers run outside the shim, so they need paths they can be
// handed: each instrumented run gets a private namespace <root>/<pid>-<nonce>
// (0700) holding its capture file and its agent's per-run assets, plus a
// marker that proves fleetcom made it. The marker is written, and the root
// swept, while the child starts (settle): the child needs neither, and the
// first look at /proc/self they take costs a new process 0.1 ms. A namespace
// without its marker is never swept, so one whose shim was killed in that
// moment stays behind, harmless. Assets that must outlive the run
// (a notifier the CLI may start just as it exits, a settings file a printed
// resume line names) are stable: written once per root under a name that
// carries a hash of their content, and never removed. The root must be a
// directory of ours that nobody else can change (safe.PrivateDir); anything
// else is refused and the run goes uninstrumented.

// Root names the capture-asset root and whether the user chose it.
type Root struct {
	Dir      string
	Explicit bool // from FLEETCOM_RUNTIME_DIR rather than a default
}

// namespace is one run's capture namespace.
type namespace struct {
	root    string // the root, resolved
	dir     string
	capture string
	assets  map[string]string // asset name -> path
	files   []string          // what the namespace holds, for remove
}

// markerName is the file in a namespace that says fleetcom made it, for
// which process and in which PID namespace.
const markerName = ".fleetcom-namespace"

// openRoot makes sure the root exists and is private to us, and returns its
// resolved path.
func openRoot(r Root) (string, error) {
	if r.Dir == "" {
		return "", errors.New("no runtime directory")
	}
	if !filepath.IsAbs(r.Dir) {
		return "", fmt.Errorf("runtime directory %s is not an absolute path", r.Dir)
	}
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return "", fmt.Errorf("create runtime directory: %w", err)
	}
	dir, err := safe.PrivateDir(r.Dir)
	if err != nil {
		return "", fmt.Errorf("runtime directory: %w", err)
	}
	return dir, nil
}

// newNamespace creates a namespace under root with the agent's assets and
// its capture file; settle completes it.
func newNamespace(r Root, assets []harness.Asset) (*namespace, error) {
	root, err := openRoot(r)
	if err != nil {
		return nil, err
	}
	pid := os.Getpid()
	var dir string
	for attempt := 0; ; attempt++ {
		// The nonce only has to differ between shims and across pid reuse
		// (Mkdir refuses an existing name), not to be secret.
		dir = filepath.Join(root, strconv.Itoa(pid)+"-"+strconv.FormatUint(rand.Uint64()&(1<<48-1)|1<<44, 16))
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) || attempt > 3 {
			return nil, fmt.Errorf("create capture namespace: %w", err)
		}
	}
	ns := &namespace{root: root, dir: dir, capture: filepath.Join(dir, "task-"+filepath.Base(dir)+"-1.json"),
		assets: map[string]string{}}
	for _, a := range assets {
		p, err := ns.install(a)
		if err != nil {
			ns.remove()
			return nil, err
		}
		ns.assets[a.Name] = p
	}
	fd, err := syscall.Open(ns.capture, syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		ns.remove()
		return nil, fmt.Errorf("create capture file: %w", &os.PathError{Op: "open", Path: ns.capture, Err: err})
	}
	syscall.Close(fd)
	ns.files = append(ns.files, ns.capture)
	return ns, nil
}

// settle writes the namespace's marker and removes the namespaces of runs
// that are over.
func (ns *namespace) settle() error {
	self := currentProcess()
	marker := filepath.Join(ns.dir, markerName)
	ns.files = append(ns.files, marker)
	fd, err := syscall.Open(marker, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err == nil {
		_, err = syscall.Write(fd, self.marker())
		syscall.Close(fd)
	}
	if err != nil {
		return fmt.Errorf("mark capture namespace: %w", &os.PathError{Op: "write", Path: marker, Err: err})
	}
	sweepDead(ns.root, self)
	return nil
}

// install writes one asset: into the namespace, or once into the root for a
// stable one. An asset named folder/file goes in a folder of its own (a CLI
// that takes a directory: Copilot's --plugin-dir); for a stable one the
// folder carries the hash, and the file keeps its name.
func (ns *namespace) install(a harness.Asset) (string, error) {
	folder, name, inFolder := strings.Cut(a.Name, "/")
	if !a.Stable {
		p := filepath.Join(ns.dir, a.Name)
		if inFolder {
			if err := os.Mkdir(filepath.Join(ns.dir, folder), 0o700); err != nil && !errors.Is(err, os.ErrExist) {
				return "", err
			}
		}
		ns.files = append(ns.files, p)
		return p, safe.WriteFile(p, a.Data, a.Mode)
	}
	digest := sha256.Sum256(append([]byte(a.Mode.String()), a.Data...))
	sum := hex.EncodeToString(digest[:6])
	var p string
	if inFolder {
		dir := filepath.Join(ns.root, folder+"-"+sum)
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return "", err
		}
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("asset folder %s is not a directory", dir)
		}
		p = filepath.Join(dir, name)
	} else {
		ext := filepath.Ext(a.Name)
		p = filepath.Join(ns.root, strings.TrimSuffix(a.Name, ext)+"-"+sum+ext)
	}
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() == a.Mode.Perm() {
		return p, nil
	}
	return p, safe.WriteFile(p, a.Data, a.Mode)
}

// remove deletes the namespace; stable assets stay. The files it made go
// one by one, which costs a third of the system calls of RemoveAll; anything
// else in it (left by a hook, say) sends it to RemoveAll.
func (ns *namespace) remove() {
	if ns == nil {
		return
	}
	for _, f := range ns.files {
		syscall.Unlink(f)
	}
	if syscall.Rmdir(ns.dir) != nil {
		os.RemoveAll(ns.dir)
	}
}

// process identifies a process across PID reuse and PID namespaces.
type process struct {
	pid   int
	start string // start time in clock ticks since boot (/proc/<pid>/stat)
	pidns string // the PID namespace, as /proc/self/ns/pid names it
}

func currentProcess() process {
	p := process{pid: os.Getpid()}
	p.start = startTime(p.pid)
	p.pidns, _ = os.Readlink("/proc/self/ns/pid")
	return p
}

func (p process) marker() []byte {
	return []byte("fleetcom namespace\npid " + strconv.Itoa(p.pid) + "\nstart " + p.start + "\npidns " + p.pidns + "\n")
}

// parseMarker reads a namespace's marker.
func parseMarker(data []byte) (process, bool) {
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "fleetcom namespace" {
		return process{}, false
	}
	var p process
	var err error
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		switch k {
		case "pid":
			p.pid, err = strconv.Atoi(v)
		case "start":
			p.start = v
		case "pidns":
			p.pidns = v
		default:
			return process{}, false
		}
	}
	return p, err == nil && p.pid > 0
}

// startTime is a process's start time as /proc shows it, "" when unknown.
func startTime(pid int) string {
	p, _ := safe.ReadProc(pid)
	return p.Start
}

// sweepDead removes the namespaces fleetcom can prove it made for a run
// that is over: the name has the exact shape this package gives, the
// directory is ours and holds a marker naming the same pid in our PID
// namespace, and that process is gone (or the pid now names a process that
// started at another time). Everything else in the root stays, whatever its
// name: a namespace of another PID namespace (a container sharing the
// directory) cannot be judged from here.
func sweepDead(root string, self process) {
	if self.pidns == "" {
		return
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := namespaceName(e.Name())
		if !ok || !e.IsDir() || pid == self.pid {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if fi, err := os.Lstat(dir); err != nil || !ownedByMe(fi) {
			continue
		}
		data, err := safe.ReadFile(filepath.Join(dir, markerName), 4096, safe.NoFollow)
		if err != nil {
			continue
		}
		m, ok := parseMarker(data)
		if !ok || m.pid != pid || m.pidns != self.pidns {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH || (m.start != "" && startTime(pid) != m.start) {
			os.RemoveAll(dir)
		}
	}
}

// namespaceName parses "<pid>-<nonce>" as newNamespace names them: a
// positive decimal pid and exactly twelve lowercase hex digits.
func namespaceName(name string) (int, bool) {
	pidText, nonce, ok := strings.Cut(name, "-")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 || strconv.Itoa(pid) != pidText || len(nonce) != 12 {
		return 0, false
	}
	for i := 0; i < len(nonce); i++ {
		if c := nonce[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return 0, false
		}
	}
	return pid, true
}

func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

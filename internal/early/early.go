package early

// Only what TestImports allows: "strings" or "bytes" here would put this
// package's init after os's, and the pass-through with it (doc.go).
import (
	"path"
	"slices"
	"strconv"
)

//go:generate go run gen_agents.go

// Agent is what the pass-through needs of one agent: its program name, the
// resume spelling and the options that keep a command from counting as
// options only (harness.Spec). The table, Agents, is generated from the
// agent list (harness/agents).
type Agent struct {
	Name    string
	Resume  []string // the words before the ID
	Joined  bool     // the ID is joined to the last word with '='
	Dropped []string
}

// Plan decides a pass-through for the command argv in the environment env
// (each "KEY=value", as syscall.Environ gives it). When ok, the caller execs
// path with argv and the returned environment; otherwise the shim must
// decide.
func Plan(argv, env []string) (real string, out []string, ok bool) {
	if len(argv) < 2 {
		return "", nil, false // no arguments, or the bare command: the shim's
	}
	a := lookup(argv[0])
	if a == nil || resumeShaped(a, argv[1:]) {
		return "", nil, false
	}
	// Options only (`claude --model opus`, `codex --version`) are captured
	// when the config asks for it: the config must say nothing of options.
	opts := optionsOnly(a, argv[1:])
	e, ok := index(env)
	if !ok {
		return "", nil, false
	}
	upper := upperName(a.Name)
	hopVar := "FLEETCOM_" + upper + "_HOP"
	if _, set := e[hopVar]; set {
		return "", nil, false
	}
	if e["FLEETCOM_"+upper+"_BIN"] != "" {
		return "", nil, false
	}
	home := e["HOME"]
	if home == "" {
		return "", nil, false // the shim asks the account database
	}
	if !configSilent(path.Join(xdgDir(e, home, "XDG_CONFIG_HOME", ".config"), "fleetcom", "config.toml"), opts) {
		return "", nil, false
	}
	shimDir := e["FLEETCOM_SHIM_DIR"]
	if shimDir == "" {
		shimDir = path.Join(xdgDir(e, home, "XDG_DATA_HOME", ".local/share"), "fleetcom", "shims")
	}
	real = find(a.Name, e["PATH"], shimDir)
	if real == "" {
		return "", nil, false
	}
	hop := hopVar + "=" + strconv.Itoa(sysGetpid()) + ":1:" + argsPrint(argv[1:]) + ":" + real
	return real, append(slices.Clip(env), hop), true
}

// lookup returns the agent a program word names: its part after the last
// '/', as the shim symlinks are named.
func lookup(prog string) *Agent {
	_, name := path.Split(prog)
	for i := range Agents {
		if Agents[i].Name == name {
			return &Agents[i]
		}
	}
	return nil
}

// resumeShaped matches the resume spelling without judging the ID.
func resumeShaped(a *Agent, args []string) bool {
	n := len(a.Resume)
	if a.Joined {
		if len(args) != n || !slices.Equal(args[:n-1], a.Resume[:n-1]) {
			return false
		}
		prefix := a.Resume[n-1] + "="
		return len(args[n-1]) >= len(prefix) && args[n-1][:len(prefix)] == prefix
	}
	return len(args) == n+1 && slices.Equal(args[:n], a.Resume)
}

// optionsOnly is harness.OptionsOnly: options, and bare words only directly
// after an option without an attached value; no "--", no dropped option.
func optionsOnly(a *Agent, args []string) bool {
	takesValue := false
	for _, arg := range args {
		switch {
		case arg == "--":
			return false
		case len(arg) > 1 && arg[0] == '-':
			name, _, value := cut(arg, '=')
			if slices.Contains(a.Dropped, name) {
				return false
			}
			takesValue = !value
		case takesValue:
			takesValue = false
		default:
			return false
		}
	}
	return len(args) > 0
}

// index is the environment by key. An empty entry, or a key twice (which
// syscall.Environ never gives), leaves the decision to the shim.
func index(env []string) (map[string]string, bool) {
	e := make(map[string]string, len(env))
	for _, kv := range env {
		if kv == "" {
			return nil, false
		}
		key, value, found := cut(kv, '=')
		if !found {
			continue // passed on, never looked up
		}
		if _, dup := e[key]; dup {
			return nil, false
		}
		e[key] = value
	}
	return e, true
}

// xdgDir is cmd/fleetcom's: the variable when it is an absolute path,
// cleaned, else def under home.
func xdgDir(e map[string]string, home, variable, def string) string {
	if v := e[variable]; len(v) > 0 && v[0] == '/' {
		return path.Clean(v)
	}
	return path.Join(home, def)
}

// configSilent reports that the config file cannot name a binary, nor,
// when options matters, ask for options-only commands to be captured: there
// is no file, or it is a readable regular file of at most 1 MiB without the
// bytes "bin" (nor "options") or a backslash, which could spell them in an
// escape. It is config.Bin's fast test, and the shim reads nothing more of
// the file on its way to a pass-through either.
func configSilent(name string, options bool) bool {
	if _, e := sysStat(name); e == eNOENT {
		return true
	}
	data, ok := readConfig(name, 1<<20)
	if !ok {
		return false
	}
	s := string(data)
	return !contains(s, "bin") && !contains(s, `\`) && !(options && contains(s, "options"))
}

// find is the shim's PATH lookup without a hop record: the first tool on
// PATH that is an executable regular file this process may run, neither
// one of fleetcom's programs (this one, and fleetcom and fleetcom-shim in
// its directory, as package own tells them) nor in the shim directory. "" when there is none, or this
// program's own file cannot be told.
func find(tool, pathVar, shimDir string) string {
	if pathVar == "" {
		return ""
	}
	self, ok := stat("/proc/self/exe")
	if !ok {
		return ""
	}
	shim, haveShim := stat(shimDir)
	for rest := pathVar; ; {
		dir, more, found := cut(rest, ':')
		rest = more
		if dir == "" {
			dir = "."
		}
		cand := path.Join(dir, tool)
		if fi, ok := stat(cand); ok && fi.executable() && !fi.same(self) && !sibling(fi) {
			inShim := false
			if haveShim {
				di, ok := stat(dir)
				inShim = ok && di.same(shim)
			}
			if !inShim && runnable(cand) {
				return cand
			}
		}
		if !found {
			return ""
		}
	}
}

// sibling reports whether fi is the file named fleetcom or fleetcom-shim in
// this program's directory: the other program of its install. They are
// looked at once, when the first candidate that is not this program is.
func sibling(fi fileID) bool {
	if !siblingsRead {
		siblingsRead = true
		buf := exeBuf[:]
		if n, e := sysReadlink("/proc/self/exe", buf); e == 0 && n > 0 && n < len(buf) {
			dir, _ := path.Split(string(buf[:n]))
			for i, name := range []string{"fleetcom", "fleetcom-shim"} {
				siblings[i], _ = stat(dir + name)
			}
		}
	}
	for _, s := range siblings {
		if s.executable() && s.same(fi) {
			return true
		}
	}
	return false
}

var (
	siblingsRead bool
	siblings     [2]fileID
	// exeBuf takes this program's path. As a local it would sit on the
	// stack of the goroutine that runs the inits and grow that stack past
	// its first 2 KiB: a copy that decodes the stack maps of every frame,
	// page faults on tables of the binary the pass-through otherwise never
	// reads (path (a), bench/pair: 2.7 % of the whole command).
	exeBuf [4096]byte
)

// fileID is what the lookup needs of a stat.
type fileID struct {
	dev, ino uint64
	mode     uint32
}

func stat(name string) (fileID, bool) {
	fi, e := sysStat(name)
	return fi, e == 0
}

func (f fileID) same(g fileID) bool { return f.dev == g.dev && f.ino == g.ino }

func (f fileID) executable() bool {
	return f.mode&sIFMT == sIFREG && f.mode&0o111 != 0
}

// runnable reports that this process may execute name: not on a noexec
// mount, permitted to this user (access(2), X_OK), as the shell's PATH
// search asks.
func runnable(name string) bool { return sysAccess(name, xOK) == 0 }

// xOK is access(2)'s X_OK, which package syscall does not name.
const xOK = 1

// argsPrint is the shim's fingerprint of the arguments after the program
// word: FNV-1a (64 bits) over each one and a NUL, in base 36. (hash/fnv
// would import io, which waits for internal/godebug's init: doc.go.)
func argsPrint(args []string) string {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, a := range args {
		for i := 0; i < len(a); i++ {
			h = (h ^ uint64(a[i])) * prime
		}
		h *= prime // the NUL: h ^ 0 is h
	}
	return strconv.FormatUint(h, 36)
}

// The few string operations the package needs, written out: "strings"
// would move this package's init behind os's (doc.go).

// cut is strings.Cut for one byte.
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// contains is strings.Contains.
func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// upperName is an agent's name in upper case (they are ASCII).
func upperName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// Package early runs the shim's pass-through before Go's packages start.
//
// Most commands a shim sees are not ones it captures (`claude -p …`,
// `codex exec …`, `grok --version`): it only finds the real binary and
// replaces itself with it. On that path the cost of a Go program is its
// start-up, and most of that is page faults on the code and data of the
// package initialisers (encoding/json, the TOML decoder, the agents'
// registry, os, syscall) and of main's way to the exec. This package imports
// nothing, so it is initialised before all of them (the language initialises
// packages in the order of their import paths, each one once its imports
// are, and "github.com/…" sorts before the standard library's "internal/…",
// "os" and "syscall"). Its init reads the command line and the environment
// from /proc, and when the command is plainly one to pass through it
// finds the real binary and execs it, with the hop record the shim would
// have set.
//
// It decides only what it can decide exactly as package shim does, and
// leaves everything else to the shim: a command that is or may be a captured
// form (options only, when the config may ask for those), a hop record
// already in the environment (a chain of wrappers), a FLEETCOM_<TOOL>_BIN, a
// config file that may name a binary, anything unusual in the environment,
// no real binary, an exec that fails. Then the program starts as usual and the shim does the work again, reporting any
// problem itself. Shim's tests check that whatever this package passes
// through, the shim would have passed through to the same binary with the
// same arguments and environment.
//
// Only Linux on amd64 and arm64 has the system calls written for it; other
// systems always take the usual way.
package early

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
// (each "KEY=value"). When ok, the caller execs path with argv and the
// returned environment; otherwise the shim must decide.
func Plan(argv, env []string) (path string, out []string, ok bool) {
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
	if _, set := e.get(hopVar); set {
		return "", nil, false
	}
	if v, _ := e.get("FLEETCOM_" + upper + "_BIN"); v != "" {
		return "", nil, false
	}
	home, _ := e.get("HOME")
	if home == "" {
		return "", nil, false // the shim asks the account database
	}
	if !configSilent(join(xdgDir(e, home, "XDG_CONFIG_HOME", ".config"), "fleetcom", "config.toml"), opts) {
		return "", nil, false
	}
	shimDir, _ := e.get("FLEETCOM_SHIM_DIR")
	if shimDir == "" {
		shimDir = join(xdgDir(e, home, "XDG_DATA_HOME", ".local/share"), "fleetcom", "shims")
	}
	pathVar, _ := e.get("PATH")
	real := find(a.Name, pathVar, shimDir)
	if real == "" {
		return "", nil, false
	}
	pid := getpid()
	if pid <= 0 {
		return "", nil, false
	}
	hop := hopVar + "=" + itoa(uint64(pid), 10) + ":1:" + argsPrint(argv[1:]) + ":" + real
	out = make([]string, 0, len(env)+1)
	return real, append(append(out, env...), hop), true
}

// lookup returns the agent a program word names (its last element).
func lookup(prog string) *Agent {
	if i := agentIndex(prog); i >= 0 {
		return &Agents[i]
	}
	return nil
}

// agentIndex is the index in Agents of the agent a program word names, -1
// for none. It takes bytes too, for a word read into a buffer.
func agentIndex[S string | []byte](prog S) int {
	name := prog
	for i := len(prog) - 1; i >= 0; i-- {
		if prog[i] == '/' {
			name = prog[i+1:]
			break
		}
	}
	for i := range Agents {
		if string(name) == Agents[i].Name {
			return i
		}
	}
	return -1
}

// resumeShaped matches the resume spelling without judging the ID.
func resumeShaped(a *Agent, args []string) bool {
	n := len(a.Resume)
	if a.Joined {
		if len(args) != n || !equal(args[:n-1], a.Resume[:n-1]) {
			return false
		}
		return hasPrefix(args[n-1], a.Resume[n-1]+"=")
	}
	return len(args) == n+1 && equal(args[:n], a.Resume)
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
			name, value := arg, false
			for i := 0; i < len(arg); i++ {
				if arg[i] == '=' {
					name, value = arg[:i], true
					break
				}
			}
			for _, d := range a.Dropped {
				if d == name {
					return false
				}
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

// environ is the environment by key. Go's os package keeps the first of
// duplicate keys and drops the rest from what it passes on; rather than
// copy that, a duplicate or an empty entry leaves the decision to the shim.
type environ map[string]string

func index(env []string) (environ, bool) {
	e := make(environ, len(env))
	for _, kv := range env {
		if kv == "" {
			return nil, false
		}
		key, value := kv, ""
		for i := 0; i < len(kv); i++ {
			if kv[i] == '=' {
				key, value = kv[:i], kv[i+1:]
				break
			}
		}
		if len(key) == len(kv) {
			continue // no '=': passed on, never looked up
		}
		if _, dup := e[key]; dup {
			return nil, false
		}
		e[key] = value
	}
	return e, true
}

func (e environ) get(key string) (string, bool) {
	v, ok := e[key]
	return v, ok
}

// xdgDir is cmd/fleetcom's: the variable when it is an absolute path,
// cleaned, else def under home.
func xdgDir(e environ, home, variable, def string) string {
	if v, _ := e.get(variable); len(v) > 0 && v[0] == '/' {
		return clean(v)
	}
	return join(home, def)
}

// configSilent reports that the config file cannot name a binary, nor,
// when options matters, ask for options-only commands to be captured: there
// is no file, or it is a readable regular file of at most 1 MiB without the
// bytes "bin" (nor "options") or a backslash, which could spell them in an
// escape. It is config.Bin's fast test, and the shim reads nothing more of
// the file on its way to a pass-through either.
func configSilent(path string, options bool) bool {
	data, missing, ok := readConfig(path, 1<<20)
	if missing {
		return true
	}
	if !ok {
		return false
	}
	s := string(data)
	return !contains(s, "bin") && !contains(s, "\\") && !(options && contains(s, "options"))
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// find is the shim's PATH lookup without a hop record: the first tool on
// PATH that is an executable regular file, neither this program nor in the
// shim directory. "" when there is none, or this program's own file cannot
// be told.
func find(tool, pathVar, shimDir string) string {
	if pathVar == "" {
		return ""
	}
	self, err := stat("/proc/self/exe")
	if err {
		return ""
	}
	shim, err := stat(shimDir)
	haveShim := !err
	start := 0
	for i := 0; i <= len(pathVar); i++ {
		if i < len(pathVar) && pathVar[i] != ':' {
			continue
		}
		dir := pathVar[start:i]
		start = i + 1
		if dir == "" {
			dir = "."
		}
		cand := join(dir, tool)
		fi, err := stat(cand)
		if err || !fi.executable() || fi.same(self) {
			continue
		}
		if haveShim {
			if di, err := stat(dir); !err && di.same(shim) {
				continue
			}
		}
		return cand
	}
	return ""
}

// fileID is what the lookup needs of a stat.
type fileID struct {
	dev, ino uint64
	mode     uint32
}

func (f fileID) same(g fileID) bool { return f.dev == g.dev && f.ino == g.ino }

func (f fileID) executable() bool { return f.mode&0o170000 == 0o100000 && f.mode&0o111 != 0 }

// argsPrint is the shim's fingerprint of the arguments after the program
// word: FNV-1a (64 bits) over each one and a NUL, in base 36.
func argsPrint(args []string) string {
	h := uint64(14695981039346656037)
	for _, a := range args {
		for i := 0; i < len(a); i++ {
			h = (h ^ uint64(a[i])) * 1099511628211
		}
		h *= 1099511628211 // the NUL: h ^ 0 is h
	}
	return itoa(h, 36)
}

func itoa(v uint64, base uint64) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	var b [64]byte
	i := len(b)
	for {
		i--
		b[i] = digits[v%base]
		v /= base
		if v == 0 {
			return string(b[i:])
		}
	}
}

func upperName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// join is path/filepath.Join on Unix: the non-empty elements, separated by
// '/', cleaned; "" when all are empty.
func join(elems ...string) string {
	n := 0
	for _, e := range elems {
		if e != "" {
			n += len(e) + 1
		}
	}
	if n == 0 {
		return ""
	}
	b := make([]byte, 0, n)
	for _, e := range elems {
		if e != "" {
			if len(b) > 0 {
				b = append(b, '/')
			}
			b = append(b, e...)
		}
	}
	return clean(string(b))
}

// clean is path/filepath.Clean on Unix: the shortest equivalent path by
// lexical rules alone. Repeated slashes become one, "." elements go, and
// each ".." removes the element before it where there is one; a ".." at
// the root is dropped, and one at the start of a relative path stays.
func clean(p string) string {
	if p == "" {
		return "."
	}
	rooted := p[0] == '/'
	b := make([]byte, 0, len(p))
	if rooted {
		b = append(b, '/')
	}
	floor := len(b) // ".." cannot remove what lies before floor
	for i := 0; i < len(p); {
		j := i
		for j < len(p) && p[j] != '/' {
			j++
		}
		elem := p[i:j]
		i = j + 1
		switch elem {
		case "", ".":
		case "..":
			switch {
			case len(b) > floor:
				k := len(b) - 1
				for k > floor && b[k] != '/' {
					k--
				}
				b = b[:k]
			case !rooted:
				if len(b) > 0 {
					b = append(b, '/')
				}
				b = append(b, ".."...)
				floor = len(b)
			}
		default:
			if len(b) > 0 && b[len(b)-1] != '/' {
				b = append(b, '/')
			}
			b = append(b, elem...)
		}
	}
	if len(b) == 0 {
		return "."
	}
	return string(b)
}

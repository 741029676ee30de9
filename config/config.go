// Package config reads fleetcom's optional config.toml. It is read at most
// once per process (a changed file is read again), every read is bounded
// (a regular file opened without blocking, at most maxSize bytes, nesting at
// most maxDepth deep, checked before decoding), and the one question the
// shim's pass-through path asks, which binary the config names for a tool,
// has a fast answer that is the decoder's answer on every input.
//
// The file:
//
//	[capture]
//	options = false   # remember launch options for resume (opt-in)
//	tail = 262144     # bytes of terminal output kept for the exit hint
//
//	[claude]          # one table per agent, named as the agent
//	bin = "/opt/claude/bin/claude"
//	hooks = true      # state hooks: true, false, or unset (notify.go)
//
//	[notify]          # notices of runs that need you (notify.go); off unless set
//	desktop = true
//	terminal = "osc9" # or "osc777", "bell", "none"
//	command = ["/path/to/program", "arg"]
//	after = 60        # seconds: a turn this long is told when it ends
//	every = 10        # seconds: at most one notice per run this often
//
//	[status]
//	hosts = ["box1", "me@box2"]  # also asked by `fleetcom status`
//
//	[index]
//	text = true       # false: the index keeps no text, only metadata
//
//	[restore]         # how `restore --exec` starts agents again (restore.go)
//	gap = 5           # seconds between two starts
//	jitter = 20       # percent: each pause is gap ± this much of it
//	alive = 10        # seconds a start must stay up, unless seen ready first
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"

	"github.com/pelletier/go-toml/v2"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
)

const (
	// maxSize bounds the config file: a real one is a few hundred bytes.
	maxSize = 1 << 20
	// maxDepth bounds how deep arrays and inline tables may nest; fleetcom's
	// own settings nest two deep.
	maxDepth = 32
	// maxTail bounds capture.tail: the tail is memory the shim holds.
	maxTail = 64 << 20
)

// Config is the decoded file; the zero Config is the defaults.
type Config struct {
	// Options replays remembered launch options on resume ([capture]
	// options).
	Options bool
	// Tail is how many bytes of terminal output a run keeps for the exit
	// hint; 0 means the default ([capture] tail).
	Tail int
	// Notify is the [notify] table: how changes of state are told.
	Notify Notify
	// Hosts are the machines `fleetcom status` also asks ([status] hosts).
	Hosts []string
	// TextOff keeps what was said in conversations out of the index
	// ([index] text = false): their metadata only.
	TextOff bool
	bins    map[string]string
	hooks   map[string]harness.HookPolicy
	restore *Restore // nil: DefaultRestore
}

// Bin returns the binary the config names for tool, "" for none.
func (c Config) Bin(tool string) string { return c.bins[tool] }

// Load reads the config file at path. A missing file is the zero Config;
// a file that cannot be used is the zero Config and an error that names
// the file.
func Load(path string) (Config, error) {
	e := cached(path)
	return e.cfg, e.err
}

// Bin returns what Load(path) would give for tool's binary, without
// decoding the file when it cannot name one: the shim's pass-through path
// asks only this, and must stay a lookup and an exec. A file that cannot be
// used names no binary, and its error is returned.
func Bin(path, tool string) (string, error) {
	if path == "" {
		return "", nil
	}
	// Most users have no config file, and one stat says so: the read below
	// costs a pass-through start 0.03-0.04 ms more, most of it in growing
	// the goroutine's stack a second time.
	var st syscall.Stat_t
	if syscall.Stat(path, &st) == syscall.ENOENT {
		return "", nil
	}
	data, err := read(path)
	if err != nil {
		return "", fmt.Errorf("config %s: %w", path, err)
	}
	if !mayNameBin(data) {
		return "", nil
	}
	c, err := Load(path)
	return c.Bin(tool), err
}

// mayNameBin is the fast path: a key decodes to "bin" only if the file
// holds those bytes, or an escape sequence that could spell them.
func mayNameBin(data []byte) bool {
	return bytes.Contains(data, []byte("bin")) || bytes.IndexByte(data, '\\') >= 0
}

type entry struct {
	ino, size, mtime int64
	cfg              Config
	err              error
}

var cache struct {
	sync.Mutex
	m map[string]entry
}

// cached returns the decoded file at path, decoding it only when it is new
// to this process or changed since.
func cached(path string) entry {
	if path == "" {
		return entry{}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return entry{}
		}
		return entry{err: fmt.Errorf("config %s: %w", path, err)}
	}
	cache.Lock()
	defer cache.Unlock()
	if e, ok := cache.m[path]; ok && e.ino == int64(st.Ino) && e.size == st.Size && e.mtime == mtime(&st) {
		return e
	}
	e := entry{ino: int64(st.Ino), size: st.Size, mtime: mtime(&st)}
	data, err := read(path)
	if err == nil {
		e.cfg, err = decode(data)
	}
	if err != nil {
		e.cfg, e.err = Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	if cache.m == nil {
		cache.m = map[string]entry{}
	}
	cache.m[path] = e
	return e
}

// read returns the file's bytes, bounded; a missing file is no bytes. Its
// errors say what is wrong without the path, which callers add.
func read(path string) ([]byte, error) {
	data, err := safe.ReadFile(path, maxSize, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, safe.ErrNotRegular):
		return nil, errors.New("not a regular file")
	case errors.Is(err, safe.ErrTooLarge):
		return nil, fmt.Errorf("too large (at most %d bytes)", maxSize)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	}
	return data, nil
}

// decode checks and decodes the bytes of a config file. Its errors say on
// which line the file is wrong, where that can be told.
func decode(data []byte) (Config, error) {
	c, err := decodeDoc(data)
	if err != nil {
		var se *settingError
		if errors.As(err, &se) {
			return Config{}, positioned(se.err, data, se.table, se.key)
		}
		return Config{}, positioned(err, data, "", "")
	}
	return c, nil
}

func decodeDoc(data []byte) (Config, error) {
	var c Config
	if err := safe.TOMLDepth(data, maxDepth); err != nil {
		return c, err
	}
	var doc map[string]any
	if err := toml.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &doc); err != nil {
		return c, err
	}
	for _, key := range sortedKeys(doc) {
		table, ok := doc[key].(map[string]any)
		switch {
		case key == "capture" && ok:
			if err := c.capture(table); err != nil {
				return Config{}, err
			}
		case key == "notify" && ok:
			if err := c.notify(table); err != nil {
				return Config{}, err
			}
		case key == "status" && ok:
			if err := c.status(table); err != nil {
				return Config{}, err
			}
		case key == "index" && ok:
			if err := c.index(table); err != nil {
				return Config{}, err
			}
		case key == "restore" && ok:
			if err := c.restoreTable(table); err != nil {
				return Config{}, err
			}
		case slices.Contains(agents.Names(), key) && ok:
			if err := c.agent(key, table); err != nil {
				return Config{}, err
			}
		case key == "capture" || key == "notify" || key == "status" || key == "index" || key == "restore" || slices.Contains(agents.Names(), key):
			return Config{}, refuse("", key, fmt.Errorf("%s must be a table", key))
		default:
			return Config{}, refuse("", key, fmt.Errorf("unknown setting %s", key))
		}
	}
	return c, nil
}

func (c *Config) capture(t map[string]any) error {
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "options":
			b, ok := v.(bool)
			if !ok {
				return refuse("capture", k, errors.New("capture.options must be true or false"))
			}
			c.Options = b
		case "tail":
			n, ok := v.(int64)
			if !ok || n < 0 || n > maxTail {
				return refuse("capture", k, fmt.Errorf("capture.tail must be a number of bytes from 0 to %d", maxTail))
			}
			c.Tail = int(n)
		default:
			return refuse("capture", k, fmt.Errorf("unknown setting capture.%s", k))
		}
	}
	return nil
}

func (c *Config) index(t map[string]any) error {
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "text":
			b, ok := v.(bool)
			if !ok {
				return refuse("index", k, errors.New("index.text must be true or false"))
			}
			c.TextOff = !b
		default:
			return refuse("index", k, fmt.Errorf("unknown setting index.%s", k))
		}
	}
	return nil
}

func (c *Config) agent(name string, t map[string]any) error {
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "bin":
			s, ok := v.(string)
			if !ok {
				return refuse(name, k, fmt.Errorf("%s.bin must be a string", name))
			}
			if c.bins == nil {
				c.bins = map[string]string{}
			}
			c.bins[name] = s
		case "hooks":
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("%s.hooks must be true or false", name)
			}
			if c.hooks == nil {
				c.hooks = map[string]harness.HookPolicy{}
			}
			c.hooks[name] = harness.HooksOff
			if b {
				c.hooks[name] = harness.HooksOn
			}
		default:
			return refuse(name, k, fmt.Errorf("unknown setting %s.%s", name, k))
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Exists reports whether a config file is there at all, for the doctor.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

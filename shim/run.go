package shim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	// Passes plain pass-through commands on before this program's packages
	// start; everything else reaches Run.
	_ "github.com/fleetcom/fleetcom/internal/early"
)

// Paths are the locations cmd/fleetcom resolved from the environment.
type Paths struct {
	ShimDir    string
	StoreDir   string
	ConfigFile string
	CacheDir   string
	Runtime    Root
	// LiveDir is where runs keep their live files (package fleet); ""
	// for none.
	LiveDir string
}

// Options is everything a run needs from the process around it.
type Options struct {
	Paths
	Stdin, Stdout, Stderr *os.File
	// Warn reports a failure of fleetcom's own machinery; the command still
	// runs. Run calls it at most once per distinct problem, and never while
	// the child owns the terminal.
	Warn func(error)
}

func (o Options) warn(err error) {
	if o.Warn != nil && err != nil {
		o.Warn(err)
	}
}

// NoRealError says no real binary could be found for a tool.
type NoRealError struct {
	Tool string
	Err  error
}

func (e *NoRealError) Error() string {
	if errors.Is(e.Err, ErrNoReal) {
		return fmt.Sprintf("%s: no real %s found on PATH outside the shim directory", e.Tool, e.Tool)
	}
	return fmt.Sprintf("%s: %v", e.Tool, e.Err)
}

func (e *NoRealError) Unwrap() error { return e.Err }

// Hint names the fix.
func (e *NoRealError) Hint() string {
	a, _ := agents.Named(e.Tool)
	if os.Getenv(a.BinVar()) != "" {
		// Never ask for a variable that is already set: it is the problem.
		return fmt.Sprintf("point %s at the real %s, or unset it", a.BinVar(), e.Tool)
	}
	return fmt.Sprintf("install %s, or set %s to its path", e.Tool, a.BinVar())
}

// noReal is the outcome of a lookup that found nothing to run: status 126
// when what it found may not be run (a shell's "permission denied"), else
// 127.
func noReal(a harness.Agent, err error) (Status, error) {
	code := 127
	if errors.Is(err, fs.ErrPermission) {
		code = 126
	}
	return Status{Code: code}, &NoRealError{Tool: a.Name, Err: err}
}

// Run is the shim for tool: an accepted command is instrumented, run and
// recorded; anything else replaces this process with the real binary, argv
// unchanged. Run returns only when the child ended or nothing could run.
func Run(a harness.Agent, argv []string, o *Options) (Status, error) {
	if len(argv) == 0 {
		return Status{Code: 2}, runError(a, 0)
	}
	form, accepted := harness.DetectArgv(a, argv)
	prev, chained := parseHop(os.Getenv(a.HopVar()))
	if chained && prev.depth >= maxHops {
		return Status{Code: 127}, runError(a, prev.depth)
	}
	// Options only (`claude --model opus`): captured when the user opted in.
	// Only such invocations pay for reading the config on their way.
	if !accepted && harness.OptionsOnly(a, argv[1:]) && optionsCaptured(o.ConfigFile) {
		form, accepted = harness.Form{Tool: a.Name, Program: argv[0], Options: argv[1:]}, true
	}
	passOn := chained && prev.passOn(argv[1:], accepted)
	if !accepted || passOn {
		// Everything on this path is passed by pointer, and the accepted
		// path's work is in accept's frame, not Run's: the pass-through
		// then fits the 4 KiB a Go program's first stack grows to, and the
		// runtime copies that stack once rather than twice before the
		// exec (Options goes by pointer for the same reason).
		return opaque(a, argv, &prev, chained, passOn, o)
	}
	// A child will run: its signal relay gets ready meanwhile.
	WarmSignals()
	return accept(a, argv, form, prev.depth, o)
}

// runError is Run's error for no arguments (depth 0) or a chain of hops
// that went on too long. It is a function of its own, never inlined, to keep
// the formatting out of Run's frame: the pass-through's stack must fit the
// 4 KiB the runtime first grows it to, or it is copied again before the
// exec (0.01-0.02 ms, most of it page faults on the function tables).
//
//go:noinline
func runError(a harness.Agent, depth int) error {
	if depth == 0 {
		return fmt.Errorf("%s: no arguments", a.Name)
	}
	return &NoRealError{Tool: a.Name, Err: fmt.Errorf(
		"gave up after %d hops through programs named %s: is there a real %s behind the wrapper?", depth, a.Name, a.Name)}
}

// optionsCaptured reports whether the config asks for options-only
// invocations to be captured. Its problems are reported on the way on. Not
// inlined, for Run's frame (runError).
//
//go:noinline
func optionsCaptured(configFile string) bool {
	cfg, _ := config.Load(configFile)
	return cfg.Options
}

// accept finds the real binary for an accepted form and supervises the run.
func accept(a harness.Agent, argv []string, form harness.Form, depth int, o *Options) (Status, error) {
	cfg, err := config.Load(o.ConfigFile)
	if err != nil {
		o.warn(err)
	}
	f := newFinder(a, cfg.Bin(a.Name), o.ConfigFile, o.ShimDir)
	real, fromPath, err := f.find()
	if err != nil {
		return noReal(a, err)
	}
	next := hop{pid: os.Getpid(), depth: depth + 1}
	if fromPath {
		next.skip = []string{real}
	}
	return supervise(&job{a: a, form: form, argv: argv, real: real, hop: next, cfg: cfg}, *o)
}

// opaque replaces this process with the real binary. Nothing is parsed,
// generated or stored on this path: one lookup, one exec. (Most commands
// that come here never reach it: package early passes them on first.)
func opaque(a harness.Agent, argv []string, prev *hop, chained, passOn bool, o *Options) (Status, error) {
	real, fromPath, err := opaqueReal(a, prev, passOn, o)
	if err != nil {
		return noReal(a, err)
	}
	return Status{Code: 126}, execReal(real, argv, passEnv(a, argv, real, fromPath, prev, chained, passOn))
}

// opaqueReal finds the binary a pass-through runs.
func opaqueReal(a harness.Agent, prev *hop, passOn bool, o *Options) (string, bool, error) {
	configured := ""
	if os.Getenv(a.BinVar()) == "" {
		var err error
		if configured, err = config.Bin(o.ConfigFile, a.Name); err != nil {
			o.warn(err)
		}
	}
	f := newFinder(a, configured, o.ConfigFile, o.ShimDir)
	if passOn {
		f.skip = prev.skip
	}
	return f.find()
}

// passEnv is the environment a pass-through runs real in: this one, with
// the hop record that says where the run has been. It has a frame of its
// own, so that opaque's stays small for the lookup, which allocates.
func passEnv(a harness.Agent, argv []string, real string, fromPath bool, prev *hop, chained, passOn bool) []string {
	next := hop{pid: os.Getpid(), depth: 1, args: argsPrint(argv[1:])}
	if chained {
		next.depth = prev.depth + 1
	}
	if passOn {
		next.skip = prev.skip
	}
	if fromPath {
		next.skip = append(next.skip[:len(next.skip):len(next.skip)], real)
	}
	return setEnv(os.Environ(), a.HopVar(), next.String())
}

// newFinder sets up the lookup of an agent's real binary: its
// FLEETCOM_<TOOL>_BIN, else the configured bin, else PATH.
func newFinder(a harness.Agent, configured, configFile, shimDir string) finder {
	f := finder{tool: a.Name, binVar: a.BinVar(), path: os.Getenv("PATH"), shimDir: shimDir}
	if v := os.Getenv(f.binVar); v != "" {
		f.override = v
	} else if configured != "" {
		f.override, f.source = configured, "bin in "+configFile
	}
	return f
}

// setEnv returns env with key set to value, replacing any earlier entries.
func setEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	prefix := key + "="
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return append(out, prefix+value)
}

// PassThrough says what Run does with argv when the environment holds no
// hop record: the binary it replaces itself with and that binary's
// environment, or ok false when Run would capture the command or fail. It
// starts nothing. The checks of package early compare against it.
func PassThrough(a harness.Agent, argv []string, o *Options) (real string, env []string, ok bool) {
	if len(argv) == 0 || os.Getenv(a.HopVar()) != "" {
		return "", nil, false
	}
	if _, accepted := harness.DetectArgv(a, argv); accepted {
		return "", nil, false
	}
	if harness.OptionsOnly(a, argv[1:]) && optionsCaptured(o.ConfigFile) {
		return "", nil, false
	}
	var prev hop
	real, fromPath, err := opaqueReal(a, &prev, false, o)
	if err != nil {
		return "", nil, false
	}
	return real, passEnv(a, argv, real, fromPath, &prev, false, false), true
}

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/own"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/shim"
)

// Doctor judges the installation by the rules the shims themselves follow
// (shim.FindReal, shim.CheckRoot, shim.LoadConfig) and changes nothing. A
// tool that is not installed is a note, not a problem: many people use one
// agent only, and a fresh machine has none yet.

// Check statuses.
const (
	statusOK      = "ok"
	statusNote    = "note"
	statusProblem = "problem"
)

// doctorCheck is one line of the report; Name is stable for scripts.
type doctorCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Path   string `json:"path,omitempty"` // the file or directory the check is about
	Hint   string `json:"hint,omitempty"` // the command that fixes it
	// cause is the startup-file line behind a PATH problem: the text
	// report shows the checks it breaks as one problem (oneCause).
	cause pathCause
}

// doctorReport is what `fleetcom doctor --json` prints.
type doctorReport struct {
	Healthy    bool          `json:"healthy"`
	Version    string        `json:"version"`
	Executable string        `json:"executable"`
	ShimDir    string        `json:"shim_dir"`
	StoreDir   string        `json:"store_dir"`
	RuntimeDir string        `json:"runtime_dir"`
	ConfigFile string        `json:"config_file"`
	Checks     []doctorCheck `json:"checks"`
}

func cmdDoctor(in input) error {
	if len(in.args) > 0 {
		return usagef("doctor takes no arguments")
	}
	exe, err := selfPath()
	if err != nil {
		return err
	}
	rep := diagnose(exe, resolvePaths())
	if in.has("--json") {
		if err := writeJSON(rep); err != nil {
			return err
		}
	} else {
		// Each hint stands under the check it fixes, once, and the checks
		// one startup line breaks are one problem. On a terminal the status
		// words are coloured, so problems stand out.
		on := colourOn(stdout)
		hinted := map[string]bool{}
		folded := map[pathCause]bool{}
		for i, c := range rep.Checks {
			if c.cause != (pathCause{}) {
				if folded[c.cause] {
					continue
				}
				folded[c.cause] = true
				c = oneCause(c, rep.Checks[i+1:])
			}
			word := paint(on, statusColour(c.Status), c.Status)
			fmt.Fprintf(stdout, "%s%*s %s: %s\n", word, 8-len(c.Status), "", c.Name, printable(c.Detail))
			if c.Hint != "" && !hinted[c.Hint] {
				hinted[c.Hint] = true
				fmt.Fprintf(stdout, "%-8s %s %s\n", "", paint(on, "\x1b[1m", "hint:"), printable(c.Hint))
			}
		}
	}
	if !rep.Healthy {
		return exitStatus(exitNotFound)
	}
	return nil
}

// diagnose runs every check for the fleetcom at exe.
func diagnose(exe string, p shim.Paths) doctorReport {
	shimDir, _ := filepath.Abs(p.ShimDir)
	rep := doctorReport{Version: version, Executable: exe, ShimDir: shimDir,
		StoreDir: p.StoreDir, RuntimeDir: p.Runtime.Dir, ConfigFile: p.ConfigFile}
	self, _ := os.Stat(exe)
	shimBin, shimFile := shimBeside(exe)
	ours := []os.FileInfo{self, shimFile}
	me := commandName(exe, self)
	add := func(c doctorCheck) { rep.Checks = append(rep.Checks, c) }

	add(doctorCheck{Name: "fleetcom", Status: statusOK, Detail: fleetcomVersion() + " at " + exe, Path: exe})
	cfg, cfgCheck := checkConfig(p.ConfigFile)
	add(checkShims(shimDir, self, shimFile, shimBin, me))
	add(checkFleetcomOnPath(shimDir, self, exe, me))
	// With no CLI at all, one note and hint stand for the three.
	var reals []doctorCheck
	missing := 0
	for _, a := range agents.All() {
		c := checkReal(a, cfg, shimDir, p.ConfigFile)
		if c.Status == statusNote {
			missing++
		}
		reals = append(reals, c)
	}
	none := missing == len(reals)
	for i, a := range agents.All() {
		add(checkOnPath(a.Name, ours, exe, shimDir))
		if none {
			reals[i].Hint = ""
		}
		add(reals[i])
		if reals[i].Status == statusOK {
			add(checkVersion(a, reals[i].Path, p.CacheDir))
			add(checkNeedsYou(a, cfg))
		}
	}
	if none {
		add(doctorCheck{Name: "agents", Status: statusNote,
			Detail: "none of " + toolList() + " is installed yet",
			Hint:   "install one of them, or point fleetcom at it with " + binVars()})
	}
	add(checkDir("store", p.StoreDir, storePrivate, "move "+safe.Quote(p.StoreDir)+" aside"))
	runtimeFix := "set FLEETCOM_RUNTIME_DIR to a private directory of yours"
	if p.Runtime.Explicit {
		runtimeFix = "point FLEETCOM_RUNTIME_DIR at a private directory of yours, or unset it"
	}
	add(checkDir("runtime", p.Runtime.Dir, shim.CheckRoot, runtimeFix))
	add(cfgCheck)
	if c, ok := checkPassthrough(cfg.Notify, os.Getenv); ok {
		add(c)
	}
	rep.Checks = append(rep.Checks, checkDrift(p.StoreDir)...)
	for i, a := range agents.All() {
		d, ok := a.Behaviour.(harness.Diagnoser)
		if !ok || reals[i].Status == statusNote {
			continue // nothing to say about an agent that is not installed
		}
		for _, n := range d.Diagnose(a.Home(os.Getenv)) {
			c := doctorCheck{Name: n.Name, Status: statusOK, Detail: n.Detail}
			if !n.OK {
				c.Status = statusNote
			}
			add(c)
		}
	}

	rep.Healthy = true
	for _, c := range rep.Checks {
		if c.Status == statusProblem {
			rep.Healthy = false
		}
	}
	return rep
}

// commandName is how hints name fleetcom: bare when that finds this very
// binary on PATH, else by its quoted path.
func commandName(exe string, self os.FileInfo) string {
	if p, err := exec.LookPath("fleetcom"); err == nil && self != nil {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, self) {
			return "fleetcom"
		}
	}
	return safe.Quote(exe)
}

// shimBeside is the fleetcom-shim beside the fleetcom at exe, which the
// shims link to when it is there; nil when it is not.
func shimBeside(exe string) (string, os.FileInfo) {
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	p, ok := own.ShimBeside(exe)
	if !ok {
		return "", nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", nil
	}
	return p, fi
}

// checkShims wants one symlink per tool in dir, each leading to self or
// to the fleetcom-shim beside it (shimFile, at shimBin), and says which.
func checkShims(dir string, self, shimFile os.FileInfo, shimBin, me string) doctorCheck {
	c := doctorCheck{Name: "shims", Status: statusOK, Path: dir}
	var bad, toSelf, toShim []string
	for _, a := range agents.All() {
		link := filepath.Join(dir, a.Name)
		lfi, err := os.Lstat(link)
		switch {
		case err != nil:
			bad = append(bad, a.Name+" is missing")
		case lfi.Mode()&os.ModeSymlink == 0:
			bad = append(bad, link+" is not a symlink")
			c.Hint = "move " + safe.Quote(link) + " aside, then run: " + me + " shims install"
		default:
			fi, err := os.Stat(link)
			switch {
			case err == nil && self != nil && os.SameFile(fi, self):
				toSelf = append(toSelf, a.Name)
			case err == nil && shimFile != nil && os.SameFile(fi, shimFile):
				toShim = append(toShim, a.Name)
			default:
				target, _ := os.Readlink(link)
				bad = append(bad, a.Name+" leads to "+target+", not this fleetcom")
			}
		}
	}
	switch {
	case len(bad) > 0:
		c.Status, c.Detail = statusProblem, "in "+dir+": "+strings.Join(bad, ", ")
		if c.Hint == "" {
			c.Hint = me + " shims install"
		}
	case len(toShim) == 0:
		c.Detail = toolList() + " in " + dir + " lead to this fleetcom"
	case len(toSelf) == 0:
		c.Detail = toolList() + " in " + dir + " lead to this fleetcom's shim binary, " + shimBin
	default:
		c.Detail = toolList() + " in " + dir + " lead to this fleetcom: " + strings.Join(toShim, ", ") +
			" through its shim binary " + shimBin + ", " + strings.Join(toSelf, ", ") + " to fleetcom itself"
	}
	return c
}

// checkReal finds the real CLI the way the shim will.
func checkReal(a harness.Agent, cfg config.Config, shimDir, cfgFile string) doctorCheck {
	tool := a.Name
	c := doctorCheck{Name: tool + ".real"}
	real, err := shim.FindReal(a, cfg, cfgFile, shimDir)
	variable := a.BinVar()
	switch {
	case err == nil:
		c.Status, c.Path, c.Detail = statusOK, real, "real cli "+real
	case errors.Is(err, shim.ErrNoReal):
		c.Status, c.Detail = statusNote, "not installed"
		c.Hint = "install " + tool + ", or set " + variable + " to its path"
	case errors.Is(err, fs.ErrPermission) && os.Getenv(variable) == "" && cfg.Bin(tool) == "":
		// Only a PATH candidate this user may not run was found.
		c.Status, c.Detail = statusProblem, err.Error()
		c.Hint = "install " + tool + " where this user may run it, or set " + variable + " to one it may"
	default:
		c.Status, c.Detail = statusProblem, err.Error()
		if os.Getenv(variable) != "" {
			c.Hint = "point " + variable + " at the real " + tool + ", or unset it"
		} else {
			c.Hint = "fix bin in the [" + tool + "] table of " + cfgFile
		}
	}
	return c
}

// storePrivate is the store's rule: a directory that only its owner can
// enter.
func storePrivate(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s is not private (mode %04o)", dir, fi.Mode().Perm())
	}
	return nil
}

// checkDir wants dir to pass rule and be writable, or to be creatable.
// A rule broken by the mode of a directory of ours is fixed with chmod;
// anything else with otherFix.
func checkDir(name, dir string, rule func(string) error, otherFix string) doctorCheck {
	c := doctorCheck{Name: name, Status: statusProblem, Path: dir}
	fi, err := os.Lstat(dir)
	chmod := "chmod 700 " + safe.Quote(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return creatable(c, dir)
	case err != nil:
		c.Detail, c.Hint = err.Error(), otherFix
	default:
		if err := rule(dir); err != nil {
			c.Detail, c.Hint = err.Error(), otherFix
			if fi.IsDir() && ownedByMe(fi) {
				c.Hint = chmod
			}
		} else if unix.Access(dir, unix.W_OK|unix.X_OK) != nil {
			c.Detail, c.Hint = dir+" is not writable", chmod
		} else {
			c.Status, c.Detail = statusOK, dir+" is private and writable"
		}
	}
	return c
}

// creatable passes a missing directory whose nearest existing parent lets
// this user create it.
func creatable(c doctorCheck, dir string) doctorCheck {
	parent := filepath.Dir(dir)
	for {
		if _, err := os.Stat(parent); err == nil || parent == filepath.Dir(parent) {
			break
		}
		parent = filepath.Dir(parent)
	}
	if unix.Access(parent, unix.W_OK|unix.X_OK) != nil {
		c.Status, c.Detail = statusProblem, dir+" is missing and "+parent+" is not writable"
		c.Hint = "mkdir -m 700 -p " + safe.Quote(dir)
		return c
	}
	c.Status, c.Detail = statusOK, dir+" will be created on first use"
	return c
}

// checkConfig loads the config file as a shim would.
func checkConfig(path string) (config.Config, doctorCheck) {
	c := doctorCheck{Name: "config", Status: statusOK, Path: path}
	cfg, err := config.Load(path)
	switch {
	case err != nil:
		c.Status, c.Detail = statusProblem, err.Error()
		c.Hint = "fix or remove " + safe.Quote(path)
	case fileExists(path):
		c.Detail = path + " is valid"
	default:
		c.Detail = "no " + path + ": defaults apply"
	}
	return cfg, c
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}

func toolList() string { return strings.Join(agents.Names(), ", ") }

func binVars() string {
	var vars []string
	for _, a := range agents.All() {
		vars = append(vars, a.BinVar())
	}
	return strings.Join(vars, ", ")
}

package shim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
)

// RunCommand is `fleetcom run`: the command string goes through $SHELL -c
// (else /bin/sh). Only an accepted form is instrumented, by editing the
// string after its program word, and recorded; anything else replaces this
// process with the shell, the string untouched.
func RunCommand(text string, o Options) (Status, error) {
	shell := os.Getenv("SHELL")
	if fi, err := os.Stat(shell); shell == "" || err != nil || !executable(fi) {
		shell = "/bin/sh"
	}
	h, form, ok := harness.DetectCommand(text)
	if !ok {
		return Status{Code: 126}, execReal(shell, []string{shell, "-c", text}, os.Environ())
	}
	cfg, err := LoadConfig(o.ConfigFile)
	if err != nil {
		o.warn(err)
	}
	prev, chained := parseHop(os.Getenv(hopVar(h.Name())))
	next := hop{pid: os.Getpid(), depth: 1}
	if chained {
		next.depth = prev.depth + 1
	}
	j := &job{h: h, form: form, shell: shell, text: text, hop: next, cfg: cfg}
	if h.Name() == "grok" && form.Resume == "" {
		// Only to learn whether this grok takes --session-id.
		j.probe, _ = resolveProgram(h.Name(), form.Program, "", cfg, o)
	}
	return supervise(j, o)
}

// Resume is `fleetcom resume --exec`: it continues a recorded conversation in
// its own directory, under this runtime, as the accepted resume form (so
// capture goes on and the record is updated), with any remembered options
// appended.
func Resume(h harness.Harness, program, id, dir string, options []string, o Options) (Status, error) {
	args, err := h.ResumeArgs(id)
	if err != nil {
		return Status{Code: 2}, err
	}
	if program == "" {
		program = h.Name()
	}
	cfg, err := LoadConfig(o.ConfigFile)
	if err != nil {
		o.warn(err)
	}
	real, err := resolveProgram(h.Name(), program, dir, cfg, o)
	if err != nil {
		return Status{Code: 127}, &NoRealError{Tool: h.Name(), Err: err}
	}
	prev, chained := parseHop(os.Getenv(hopVar(h.Name())))
	next := hop{pid: os.Getpid(), depth: 1, skip: []string{real}}
	if chained {
		next.depth = prev.depth + 1
	}
	return supervise(&job{
		h:     h,
		form:  harness.Form{Tool: h.Name(), Program: program, Resume: id},
		argv:  append([]string{program}, args...),
		extra: options,
		real:  real,
		hop:   next,
		cfg:   cfg,
		dir:   dir,
	}, o)
}

// resolveProgram finds the binary a recorded program word names: a path is
// used as it is (relative to dir) unless it is fleetcom itself; a bare name
// is looked up like a shim does.
func resolveProgram(tool, program, dir string, cfg Config, o Options) (string, error) {
	if strings.Contains(program, "/") {
		p := program
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		if err == nil && executable(fi) {
			if self := selfInfo(); self == nil || !os.SameFile(fi, self) {
				return p, nil
			}
		} else if err == nil {
			return "", fmt.Errorf("%s is not an executable file", p)
		}
	}
	f := newFinder(tool, cfg.Bin(tool), o.ConfigFile, o.ShimDir)
	real, _, err := f.find()
	return real, err
}

package shim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/own"
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
	a, form, ok := harness.DetectCommand(text, agents.Named)
	if !ok {
		return Status{Code: 126}, execReal(shell, []string{shell, "-c", text}, os.Environ())
	}
	WarmSignals()
	cfg, err := config.Load(o.ConfigFile)
	if err != nil {
		o.warn(err)
	}
	prev, chained := parseHop(os.Getenv(a.HopVar()))
	next := hop{pid: os.Getpid(), depth: 1}
	if chained {
		next.depth = prev.depth + 1
	}
	j := &job{a: a, form: form, shell: shell, text: text, hop: next, cfg: cfg}
	// What the program word runs, for an agent whose instrumentation
	// depends on the binary; the shell still does the running.
	j.probe, _ = resolveProgram(a, form.Program, "", cfg, o)
	return supervise(j, o)
}

// Resume is `fleetcom resume --exec`: it continues a recorded conversation in
// its own directory, under this runtime, as the accepted resume form (so
// capture goes on and the record is updated), with any remembered options
// appended.
func Resume(a harness.Agent, program, id, dir string, options []string, o Options) (Status, error) {
	args, err := a.ResumeArgs(id)
	if err != nil {
		return Status{Code: 2}, err
	}
	WarmSignals()
	if program == "" {
		program = a.Name
	}
	cfg, err := config.Load(o.ConfigFile)
	if err != nil {
		o.warn(err)
	}
	real, err := resolveProgram(a, program, dir, cfg, o)
	if err != nil {
		return noReal(a, err)
	}
	prev, chained := parseHop(os.Getenv(a.HopVar()))
	next := hop{pid: os.Getpid(), depth: 1, skip: []string{real}}
	if chained {
		next.depth = prev.depth + 1
	}
	return supervise(&job{
		a:     a,
		form:  harness.Form{Tool: a.Name, Program: program, Resume: id},
		argv:  append([]string{program}, args...),
		extra: harness.Surviving(a, options),
		real:  real,
		hop:   next,
		cfg:   cfg,
		dir:   dir,
	}, o)
}

// resolveProgram finds the binary a recorded program word names: a path is
// used as it is (relative to dir) unless it is fleetcom itself; a bare name
// is looked up like a shim does.
func resolveProgram(a harness.Agent, program, dir string, cfg config.Config, o Options) (string, error) {
	if strings.Contains(program, "/") {
		p := program
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		if err == nil && executable(fi) {
			if !own.Is(own.Files(), fi) {
				return p, nil
			}
		} else if err == nil {
			return "", fmt.Errorf("%s is not an executable file", p)
		}
	}
	f := newFinder(a, cfg.Bin(a.Name), o.ConfigFile, o.ShimDir)
	real, _, err := f.find()
	return real, err
}

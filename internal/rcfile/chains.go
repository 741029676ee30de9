package rcfile

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// maxFile caps what is read of one startup file.
const maxFile = 1 << 20

// Line is one line of a startup file, as a shell would reach it.
type Line struct {
	File string
	N    int // 1-based
	Text string
}

// Where names the line as file:line.
func (l Line) Where() string { return l.File + ":" + strconv.Itoa(l.N) }

// Home is what a startup file's words expand against: the home directory,
// zsh's ZDOTDIR and the XDG config directory, each absolute.
type Home struct {
	Dir, ZDotDir, Config string
}

// NewHome is the Home of a user whose home directory is dir and whose
// config directory is config; zdotdir is the ZDOTDIR variable, unset when
// it is empty or not absolute.
func NewHome(dir, config, zdotdir string) Home {
	h := Home{Dir: dir, ZDotDir: dir, Config: config}
	if filepath.IsAbs(zdotdir) {
		h.ZDotDir = filepath.Clean(zdotdir)
	}
	return h
}

// Chains lists, per way the shell can start, the lines it reads in order:
// for bash a login shell (the profile chain) and an interactive one (the
// bashrc chain); zsh and fish read one chain in every interactive shell.
func Chains(shell string, h Home) [][]Line {
	var chains [][]string
	switch shell {
	case "zsh":
		var files []string
		for _, name := range []string{"zshenv", "zprofile", "zshrc", "zlogin"} {
			files = append(files, firstFile("/etc/zsh/"+name, "/etc/"+name), filepath.Join(h.ZDotDir, "."+name))
		}
		chains = append(chains, files)
	case "fish":
		conf, _ := filepath.Glob(filepath.Join(h.Config, "fish", "conf.d", "*.fish"))
		sort.Slice(conf, func(i, j int) bool { return filepath.Base(conf[i]) < filepath.Base(conf[j]) })
		chains = append(chains, append(conf, filepath.Join(h.Config, "fish", "config.fish")))
	default:
		profile := firstFile(filepath.Join(h.Dir, ".bash_profile"), filepath.Join(h.Dir, ".bash_login"), filepath.Join(h.Dir, ".profile"))
		chains = append(chains, []string{"/etc/profile", profile},
			[]string{firstFile("/etc/bash.bashrc", "/etc/bash/bashrc", "/etc/bashrc"), filepath.Join(h.Dir, ".bashrc")})
	}
	var out [][]Line
	for _, files := range chains {
		var seq []Line
		seen := map[string]bool{}
		for _, f := range files {
			seq = appendFile(seq, f, shell, h, seen, 0)
		}
		out = append(out, seq)
	}
	return out
}

// firstFile is the first of paths that exists ("" for none).
func firstFile(paths ...string) string {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// appendFile adds the lines of file, and of the files it sources, to seq.
// A file already being read is not read again (a loop), nor read deeper
// than a few levels.
func appendFile(seq []Line, file, shell string, h Home, seen map[string]bool, depth int) []Line {
	if file == "" || seen[file] || depth > 4 {
		return seq
	}
	data, err := safe.ReadFile(file, maxFile, 0)
	if err != nil {
		return seq
	}
	seen[file] = true
	defer delete(seen, file)
	for i, text := range strings.Split(string(data), "\n") {
		seq = append(seq, Line{File: file, N: i + 1, Text: text})
		if src := sourced(text, shell, h); src != "" {
			seq = appendFile(seq, src, shell, h, seen, depth+1)
		}
	}
	return seq
}

// IsInitLine reports whether a line runs `fleetcom init`.
func IsInitLine(text string) bool {
	code := stripComment(text)
	i := strings.Index(code, "fleetcom")
	for i >= 0 {
		rest := strings.TrimLeft(code[i+len("fleetcom"):], `'"`)
		if t := strings.TrimLeft(rest, " \t"); len(t) < len(rest) && strings.HasPrefix(t, "init") &&
			(len(t) == 4 || strings.IndexByte(" \t)\"';|&", t[4]) >= 0) {
			return true
		}
		j := strings.Index(code[i+1:], "fleetcom")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// InitLines are the lines that run `fleetcom init` in any chain of shell.
func InitLines(shell string, h Home) []Line {
	var out []Line
	seen := map[string]bool{}
	for _, seq := range Chains(shell, h) {
		for _, l := range seq {
			if IsInitLine(l.Text) && !seen[l.Where()] {
				seen[l.Where()] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// Blame finds the line that, after the init line, last put dir in front
// of PATH: in the chain where that happens, the init line and the culprit.
// ok is false when no chain runs the init line, or none names dir after it.
func Blame(shell string, h Home, dir string) (init, culprit Line, ok bool) {
	for _, seq := range Chains(shell, h) {
		at := lastInit(seq)
		if at < 0 {
			continue
		}
		for _, l := range seq[at+1:] {
			for _, d := range prepends(l.Text, shell, h) {
				if sameDir(d, dir) {
					init, culprit, ok = seq[at], l, true
				}
			}
		}
		if ok {
			return init, culprit, true
		}
	}
	return Line{}, Line{}, false
}

// Prepend is a directory a startup line puts in front of the shims.
type Prepend struct {
	Line
	Dir   string
	Chain int // the index, in Chains, of the chain the line is read in
}

// Ahead lists the directories the startup files put in front of PATH after
// the init line, or, where there is none yet, after the end of rc (the
// file the init line is asked to be added to), chain by chain: a line read
// in two chains is listed in each.
func Ahead(shell string, h Home, rc string) []Prepend {
	var out []Prepend
	for chain, seq := range Chains(shell, h) {
		seen := map[string]bool{}
		at := lastInit(seq)
		if at < 0 {
			for i, l := range seq {
				if l.File == rc {
					at = i
				}
			}
		}
		if at < 0 {
			continue
		}
		for _, l := range seq[at+1:] {
			for _, d := range prepends(l.Text, shell, h) {
				if key := l.Where() + "\x00" + d; !seen[key] {
					seen[key] = true
					out = append(out, Prepend{l, d, chain})
				}
			}
		}
	}
	return out
}

// lastInit is the index of the last init line of seq, -1 for none.
func lastInit(seq []Line) int {
	for i := len(seq) - 1; i >= 0; i-- {
		if IsInitLine(seq[i].Text) {
			return i
		}
	}
	return -1
}

// sameDir compares two directories by name, then by what they are.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// HookDropped finds a line, after the last init line, that sets the
// prompt hooks anew without keeping what was there (PROMPT_COMMAND=…,
// precmd_functions=(…)): the init line's hook is gone from then on.
func HookDropped(shell string, h Home) (Line, bool) {
	variable := map[string]string{"bash": "PROMPT_COMMAND", "zsh": "precmd_functions"}[shell]
	if variable == "" {
		return Line{}, false
	}
	for _, seq := range Chains(shell, h) {
		at := lastInit(seq)
		if at < 0 {
			continue
		}
		for _, l := range seq[at+1:] {
			code := stripComment(l.Text)
			if strings.Contains(code, "$"+variable) || strings.Contains(code, "${"+variable) {
				continue
			}
			for _, w := range words(code) {
				if strings.HasPrefix(w, variable+"=") {
					return l, true
				}
			}
		}
	}
	return Line{}, false
}

// After is the file whose end an init line goes at to run after l: l's
// own file when it is the user's, else the shell's rc file (Of).
func After(shell string, h Home, l Line) string {
	if strings.HasPrefix(l.File, h.Dir+string(filepath.Separator)) {
		return l.File
	}
	return Of(shell, h)
}

// Of is the file the init line goes in for shell: ~/.bashrc, zsh's
// .zshrc, fish's config.fish.
func Of(shell string, h Home) string {
	switch shell {
	case "zsh":
		return filepath.Join(h.ZDotDir, ".zshrc")
	case "fish":
		return filepath.Join(h.Config, "fish", "config.fish")
	}
	return filepath.Join(h.Dir, ".bashrc")
}

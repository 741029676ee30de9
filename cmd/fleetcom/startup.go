package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// A shell's startup files, read in the order the shell reads them, to say
// which line puts a directory in front of the shims after the init line ran
// (doctor), and which directories will (install.sh). Nothing is run: each
// file is read (a regular file, at most maxStartupFile bytes), a line that
// sources another file named literally is followed, and a line that sets
// PATH is read for the directories it puts in front (startupscan.go).

// maxStartupFile caps what is read of one startup file.
const maxStartupFile = 1 << 20

// startupLine is one line of a startup file, as a shell would reach it.
type startupLine struct {
	file string
	n    int // 1-based
	text string
}

// where names the line as file:line.
func (l startupLine) where() string { return l.file + ":" + itoa(l.n) }

// shellHome is what a startup file's words expand against.
type shellHome struct {
	home, zdot, config string
}

func newShellHome() shellHome {
	h := shellHome{home: homeDir(), config: xdgDir("XDG_CONFIG_HOME", ".config")}
	h.zdot = h.home
	if z := os.Getenv("ZDOTDIR"); filepath.IsAbs(z) {
		h.zdot = filepath.Clean(z)
	}
	return h
}

// startupSequences lists, per way the shell can start, the lines it reads
// in order: for bash a login shell (the profile chain) and an interactive
// one (the bashrc chain); zsh and fish read one chain in every interactive
// shell.
func startupSequences(shell string, h shellHome) [][]startupLine {
	var chains [][]string
	switch shell {
	case "zsh":
		var files []string
		for _, name := range []string{"zshenv", "zprofile", "zshrc", "zlogin"} {
			files = append(files, firstFile("/etc/zsh/"+name, "/etc/"+name), filepath.Join(h.zdot, "."+name))
		}
		chains = append(chains, files)
	case "fish":
		conf, _ := filepath.Glob(filepath.Join(h.config, "fish", "conf.d", "*.fish"))
		sort.Slice(conf, func(i, j int) bool { return filepath.Base(conf[i]) < filepath.Base(conf[j]) })
		chains = append(chains, append(conf, filepath.Join(h.config, "fish", "config.fish")))
	default:
		profile := firstFile(filepath.Join(h.home, ".bash_profile"), filepath.Join(h.home, ".bash_login"), filepath.Join(h.home, ".profile"))
		chains = append(chains, []string{"/etc/profile", profile},
			[]string{firstFile("/etc/bash.bashrc", "/etc/bash/bashrc", "/etc/bashrc"), filepath.Join(h.home, ".bashrc")})
	}
	var out [][]startupLine
	for _, files := range chains {
		var seq []startupLine
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
func appendFile(seq []startupLine, file, shell string, h shellHome, seen map[string]bool, depth int) []startupLine {
	if file == "" || seen[file] || depth > 4 {
		return seq
	}
	data, err := safe.ReadFile(file, maxStartupFile, 0)
	if err != nil {
		return seq
	}
	seen[file] = true
	defer delete(seen, file)
	for i, text := range strings.Split(string(data), "\n") {
		seq = append(seq, startupLine{file: file, n: i + 1, text: text})
		if src := sourced(text, shell, h); src != "" {
			seq = appendFile(seq, src, shell, h, seen, depth+1)
		}
	}
	return seq
}

// isInitLine reports whether a line runs `fleetcom init`.
func isInitLine(text string) bool {
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

// initLines are the lines that run `fleetcom init` in any chain of shell.
func initLines(shell string, h shellHome) []startupLine {
	var out []startupLine
	seen := map[string]bool{}
	for _, seq := range startupSequences(shell, h) {
		for _, l := range seq {
			if isInitLine(l.text) && !seen[l.where()] {
				seen[l.where()] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// blame finds the line that, after the init line, last put dir in front
// of PATH: in the chain where that happens, the init line and the culprit.
// ok is false when no chain runs the init line, or none names dir after it.
func blame(shell string, h shellHome, dir string) (init, culprit startupLine, ok bool) {
	for _, seq := range startupSequences(shell, h) {
		at := lastInit(seq)
		if at < 0 {
			continue
		}
		for _, l := range seq[at+1:] {
			for _, d := range prepends(l.text, shell, h) {
				if sameDir(d, dir) {
					init, culprit, ok = seq[at], l, true
				}
			}
		}
		if ok {
			return init, culprit, true
		}
	}
	return startupLine{}, startupLine{}, false
}

// aheadLine is a directory a startup line puts in front of the shims.
type aheadLine struct {
	startupLine
	dir string
}

// ahead lists the directories the startup files put in front of PATH after
// the init line, or, where there is none yet, after the end of rc (the
// file install.sh asks the line to be added to).
func ahead(shell string, h shellHome, rc string) []aheadLine {
	var out []aheadLine
	seen := map[string]bool{}
	for _, seq := range startupSequences(shell, h) {
		at := lastInit(seq)
		if at < 0 {
			for i, l := range seq {
				if l.file == rc {
					at = i
				}
			}
		}
		if at < 0 {
			continue
		}
		for _, l := range seq[at+1:] {
			for _, d := range prepends(l.text, shell, h) {
				if key := l.where() + "\x00" + d; !seen[key] {
					seen[key] = true
					out = append(out, aheadLine{l, d})
				}
			}
		}
	}
	return out
}

// lastInit is the index of the last init line of seq, -1 for none.
func lastInit(seq []startupLine) int {
	for i := len(seq) - 1; i >= 0; i-- {
		if isInitLine(seq[i].text) {
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

// rcFile is the file install.sh and doctor ask the init line to go in.
func rcFile(shell string, h shellHome) string {
	switch shell {
	case "zsh":
		return filepath.Join(h.zdot, ".zshrc")
	case "fish":
		return filepath.Join(h.config, "fish", "config.fish")
	}
	return filepath.Join(h.home, ".bashrc")
}

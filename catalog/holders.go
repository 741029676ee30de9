package catalog

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// A conversation that a process has open must not be moved or adopted: a
// CLI that keeps its file open (Codex holds its rollout for the whole run)
// goes on writing to the old file once a move has replaced it, and what it
// writes then is lost. Three things name such a process: the agent's own
// bookkeeping (Claude's session files, Grok's active_sessions.json), a
// descriptor open on one of the conversation's files (on Linux
// /proc/*/fd; elsewhere lsof), and a command line that names the
// conversation's ID as a word (claude -p --resume <id>, which keeps no
// session file; a shim's run of it).

// Holder is a process that has a conversation open.
type Holder struct {
	PID     int
	Command string // its command line, cut to a line; shown escaped
}

func (h Holder) String() string {
	if h.Command == "" {
		return "process " + strconv.Itoa(h.PID)
	}
	return fmt.Sprintf("process %d (%s)", h.PID, h.Command)
}

// holders returns the processes other than this one that have conversation
// id of agent a open, its files being paths (files, or folders and all
// under them). unchecked says what could not be looked at on this system,
// "" when everything was.
func holders(a harness.Agent, home, id, cwd string, paths []string) (out []Holder, unchecked string) {
	self := os.Getpid()
	seen := map[int]bool{self: true}
	for _, pid := range a.Holders(home, id) {
		if !seen[pid] && alive(pid) {
			seen[pid] = true
			out = append(out, Holder{PID: pid, Command: commandOf(pid)})
		}
	}
	var phys []string
	for _, p := range paths {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			phys = append(phys, r)
		}
	}
	var in *inDir
	if dh, ok := a.Behaviour.(harness.DirHolder); ok && cwd != "" {
		programs, _ := dh.HeldInDir()
		in = &inDir{dir: safe.PhysicalOf(cwd), programs: programs}
	}
	procs, unchecked := scanProcesses(phys, id, ancestors(), in)
	for _, h := range procs {
		if !seen[h.PID] {
			seen[h.PID] = true
			out = append(out, h)
		}
	}
	return out, unchecked
}

// inDir asks for the processes of programs running in dir, for an agent
// whose holders cannot be seen otherwise (harness.DirHolder).
type inDir struct {
	dir      string
	programs []string
}

// runs reports whether argv is one of the programs: its first words (the
// program, or the script an interpreter runs) named after one, or inside
// its package ("gemini-cli").
func (in *inDir) runs(argv []string) bool {
	for _, w := range argv[:min(3, len(argv))] {
		for _, part := range strings.Split(w, "/") {
			for _, p := range in.programs {
				if part == p || part == p+"-cli" {
					return true
				}
			}
		}
	}
	return false
}

// ancestors are this process's parents, up to init: a wrapper that runs
// fleetcom (timeout, a script) names the ID without holding anything, so
// only their open files count.
func ancestors() map[int]bool {
	out := map[int]bool{}
	for pid, n := os.Getppid(), 0; pid > 1 && n < 64; n++ {
		out[pid] = true
		p, ok := safe.ReadProc(pid)
		if !ok {
			break
		}
		pid = p.PPID
	}
	return out
}

// namesID reports a command line that holds id as a word, alone or as an
// option's value (--resume=<id>).
func namesID(argv []string, id string) bool {
	for _, a := range argv[min(1, len(argv)):] {
		if a == id || strings.HasSuffix(a, "="+id) {
			return true
		}
	}
	return false
}

// under reports whether target is one of paths or inside one of them.
func under(target string, paths []string) bool {
	for _, p := range paths {
		if target == p || strings.HasPrefix(target, p+"/") {
			return true
		}
	}
	return false
}

// commandLine shows argv on one line: the program's base name and its
// arguments, cut to 100 characters.
func commandLine(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	words := append([]string{filepath.Base(argv[0])}, argv[1:]...)
	s := strings.Join(words, " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

// heldError is the refusal to touch a conversation a process has open.
func heldError(e Entry, what string, held []Holder) error {
	names := make([]string, len(held))
	pids := make([]string, len(held))
	for i, h := range held {
		names[i], pids[i] = h.String(), strconv.Itoa(h.PID)
	}
	proc := "process " + strings.Join(pids, ", ")
	if len(held) > 1 {
		proc = "processes " + strings.Join(pids, ", ")
	}
	return notFound(fmt.Sprintf("quit it (%s), then %s it again", proc, what),
		"%s conversation %s is open in %s", e.Tool, e.ID, strings.Join(names, ", "))
}

// writtenLately refuses to move the conversation of an agent whose holders
// cannot all be seen (harness.DirHolder) while one of its files is newer
// than the agent's Recent: a CLI out of sight may still be writing it.
func writtenLately(a harness.Agent, e Entry, files []string) error {
	dh, ok := a.Behaviour.(harness.DirHolder)
	if !ok {
		return nil
	}
	_, recent := dh.HeldInDir()
	var newest time.Time
	for _, f := range files {
		filepath.WalkDir(f, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if fi, err := d.Info(); err == nil && fi.ModTime().After(newest) {
					newest = fi.ModTime()
				}
			}
			return nil
		})
	}
	if ago := time.Since(newest); ago < recent {
		return notFound(fmt.Sprintf("if %s is still open on it, quit it there; else move it again in %s", a.Display, (recent-ago).Round(time.Second)),
			"%s conversation %s was written %s ago, and %s may still be writing it", e.Tool, e.ID, ago.Round(time.Second), a.Display)
	}
	return nil
}

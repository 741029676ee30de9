//go:build !linux

package catalog

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// scanProcesses asks what the system offers where there is no /proc:
// lsof for the processes with one of paths open, ps for command lines that
// name id (not this process's ancestors').
func scanProcesses(paths []string, id string, ancestors map[int]bool) ([]Holder, string) {
	cmds, ok := psCommands()
	var out []Holder
	var unchecked []string
	if !ok {
		unchecked = append(unchecked, "which command lines name it (no ps)")
	}
	self := os.Getpid()
	for pid, cmd := range cmds {
		if pid != self && !ancestors[pid] && namesID(strings.Fields(cmd), id) {
			out = append(out, Holder{PID: pid, Command: commandLine(strings.Fields(cmd))})
		}
	}
	if len(paths) > 0 {
		lsof, err := exec.LookPath("lsof")
		if err != nil {
			unchecked = append(unchecked, "which processes have its files open (no lsof)")
		} else {
			args := []string{"-n", "-P", "-w", "-F", "p"}
			for _, p := range paths {
				if fi, err := os.Stat(p); err == nil && fi.IsDir() {
					args = append(args, "+D", p)
				} else {
					args = append(args, p)
				}
			}
			b, _ := exec.Command(lsof, args...).Output() // exit 1: nothing open
			for _, l := range bytes.Split(b, []byte("\n")) {
				pid, err := strconv.Atoi(strings.TrimPrefix(string(l), "p"))
				if err != nil || !bytes.HasPrefix(l, []byte("p")) || pid == self {
					continue
				}
				out = append(out, Holder{PID: pid, Command: commandLine(strings.Fields(cmds[pid]))})
			}
		}
	}
	return out, strings.Join(unchecked, ", ")
}

// psCommands maps each process to its command line.
func psCommands() (map[int]string, bool) {
	b, err := exec.Command("ps", "-axww", "-o", "pid=", "-o", "command=").Output()
	if err != nil {
		return nil, false
	}
	out := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.TrimSpace(sc.Text())
		pidText, cmd, _ := strings.Cut(f, " ")
		if pid, err := strconv.Atoi(pidText); err == nil {
			out[pid] = strings.TrimSpace(cmd)
		}
	}
	return out, true
}

// commandOf is a process's command line, for people.
func commandOf(pid int) string {
	b, err := exec.Command("ps", "-ww", "-o", "command=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return ""
	}
	return commandLine(strings.Fields(string(b)))
}

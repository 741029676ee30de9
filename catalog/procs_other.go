//go:build !linux

package catalog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/bounded"
)

// scanProcesses asks what the system offers where there is no /proc:
// lsof for the processes with one of paths open, ps for command lines that
// name id (not this process's ancestors'), or, with in, that run one of its
// programs: in any directory, as ps does not say which.
func scanProcesses(paths []string, id string, ancestors map[int]bool, in *inDir) ([]Holder, string) {
	cmds, ok := psCommands()
	var out []Holder
	var unchecked []string
	if !ok {
		unchecked = append(unchecked, "which command lines name it (no ps)")
	}
	self := os.Getpid()
	for pid, cmd := range cmds {
		if pid != self && !ancestors[pid] && (namesID(strings.Fields(cmd), id) || in != nil && in.runs(strings.Fields(cmd))) {
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
			b, err := ask(lsof, args...) // exit 1: nothing open
			if err != nil && !isExit(err) {
				unchecked = append(unchecked, "which processes have its files open (lsof did not answer)")
			}
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
	b, err := ask("ps", "-axww", "-o", "pid=", "-o", "command=")
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
	b, err := ask("ps", "-ww", "-o", "command=", "-p", strconv.Itoa(pid))
	if err != nil {
		return ""
	}
	return commandLine(strings.Fields(string(b)))
}

// askWait bounds ps and lsof: lsof +D walks a folder, and a file system
// that does not answer (a hung network mount) must not hold a move.
const askWait = 30 * time.Second

// ask runs a program that only reads, bounded (bounded.Output), and
// returns what it printed, up to 16 MiB.
func ask(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), askWait)
	defer cancel()
	return bounded.Output(exec.CommandContext(ctx, name, args...), 16<<20)
}

// isExit reports a program that ran and exited with a status of its own.
func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.Exited()
}

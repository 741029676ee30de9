package termtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Descendants maps pid and every process below it to its depth: 0 for pid,
// 1 for its children, and so on. It reads /proc; where there is none, only
// pid is listed.
func Descendants(pid int) map[int]int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		stat, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// The command name is parenthesised and may hold spaces: the
		// fields after its closing parenthesis are state, then ppid.
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		me, err := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if f := strings.Fields(string(rest)); err == nil && len(f) > 1 {
			if ppid, err := strconv.Atoi(f[1]); err == nil {
				children[ppid] = append(children[ppid], me)
			}
		}
	}
	depth := map[int]int{pid: 0}
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		for _, c := range children[queue[0]] {
			depth[c] = depth[queue[0]] + 1
			queue = append(queue, c)
		}
	}
	return depth
}

// Alive reports whether a process exists and is not a zombie.
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || !bytes.HasPrefix(b[i+1:], []byte(" Z"))
}

// ProcessTree describes pid and its descendants as ps shows them: ids,
// state, where each sleeps, age, command. A wait that failed prints it, so
// that a hang shows where it hangs.
func ProcessTree(pid int) string {
	var pids []string
	for p := range Descendants(pid) {
		pids = append(pids, strconv.Itoa(p))
	}
	out, err := exec.Command("ps", "-o", "pid,ppid,pgid,sid,tpgid,stat,wchan:24,etimes,args", "-p", strings.Join(pids, ",")).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("ps: %v\n%s", err, out)
	}
	return string(out)
}

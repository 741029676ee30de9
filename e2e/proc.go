package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// descendants returns pid and every process below it, read from /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// The command name is parenthesised and may hold spaces: the
		// fields after its closing parenthesis are state, then ppid.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		me, err1 := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		parent, err2 := strconv.Atoi(f[1])
		if err1 == nil && err2 == nil {
			children[parent] = append(children[parent], me)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(s[i+1:], " Z")
}

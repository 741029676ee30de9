//go:build linux && (amd64 || arm64)

package early

func init() {
	if !mayPass() {
		return
	}
	argv, ok := readList("/proc/self/cmdline")
	if !ok || len(argv) < 2 || lookup(argv[0]) == nil {
		return
	}
	env, ok := readList("/proc/self/environ")
	if !ok {
		return
	}
	path, env, ok := Plan(argv, env)
	if !ok {
		return
	}
	execve(path, argv, env)
	// Still here: the shim finds the same binary, fails the same way and
	// says so.
}

// mayPass looks at the start of the command line, without allocating:
// the captured runs and fleetcom's own commands, which need all of the
// program, pay a read of 256 bytes and no more. False when the program
// word is not an agent's name or stands alone.
func mayPass() bool {
	var head [256]byte
	n, ok := readHead("/proc/self/cmdline", head[:])
	if !ok {
		return false
	}
	end := -1
	for i := 0; i < n; i++ {
		if head[i] == 0 {
			end = i
			break
		}
	}
	switch {
	case end < 0:
		return n == len(head) // a long program word: look at all of it
	case n == end+1 && n < len(head):
		return false // the program word alone
	}
	return agentIndex(head[:end]) >= 0
}

// readList reads a file of NUL-terminated strings (/proc/self/cmdline,
// /proc/self/environ). An empty file is an empty list; one that does not
// end in NUL is not trusted.
func readList(path string) ([]string, bool) {
	data, ok := readFile(path, 64<<20)
	if !ok || len(data) > 0 && data[len(data)-1] != 0 {
		return nil, false
	}
	n := 0
	for _, c := range data {
		if c == 0 {
			n++
		}
	}
	list := make([]string, 0, n)
	s := string(data)
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			list = append(list, s[start:i])
			start = i + 1
		}
	}
	return list, true
}

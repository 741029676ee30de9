package early

func init() {
	data, ok := readFile("/proc/self/cmdline", 64<<20)
	if !ok {
		return
	}
	argv, ok := split(data)
	if !ok || len(argv) < 2 || lookup(argv[0]) == nil {
		return
	}
	real, env, ok := Plan(argv, sysEnviron())
	if !ok {
		return
	}
	exec(real, argv, env)
	// Still here: the shim finds the same binary, fails the same way and
	// says so.
}

// exec replaces the process with real, as execvp(3) runs a file: one the
// kernel does not take as a program (ENOEXEC: a script without "#!") is
// run by /bin/sh. It returns only when that failed.
func exec(real string, argv, env []string) {
	if sysExec(real, argv, env) == eNOEXEC {
		sh := append([]string{"/bin/sh", real}, argv[1:]...)
		sysExec("/bin/sh", sh, env)
	}
}

// split reads NUL-terminated strings (/proc/self/cmdline). One that does
// not end in NUL is not trusted.
func split(data []byte) ([]string, bool) {
	if len(data) > 0 && data[len(data)-1] != 0 {
		return nil, false
	}
	var list []string
	s := string(data)
	for s != "" {
		var word string
		word, s, _ = cut(s, 0)
		list = append(list, word)
	}
	return list, true
}

// readFile reads a whole file of at most limit bytes.
func readFile(name string, limit int) ([]byte, bool) {
	fd, ok := open(name, 0)
	if !ok {
		return nil, false
	}
	defer sysClose(fd)
	return readAll(fd, 0, limit)
}

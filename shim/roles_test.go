package shim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// The roles the test binary plays when TestMain finds roleEnv or shimEnv.

func childRole(role string, args []string) {
	switch role {
	case "tty": // which descriptors are terminals, and the size
		ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
		if err != nil {
			ws, _ = unix.IoctlGetWinsize(1, unix.TIOCGWINSZ)
		}
		if ws == nil {
			ws = &unix.Winsize{}
		}
		fmt.Printf("tty 0=%v 1=%v 2=%v size=%dx%d\n", term.IsTerminal(0), term.IsTerminal(1),
			term.IsTerminal(2), ws.Row, ws.Col)
		fmt.Fprintln(os.Stderr, "stderr-line")
	case "bulk": // N bytes of pattern in writes of W bytes, on a raw terminal
		n, _ := strconv.Atoi(args[0])
		w, _ := strconv.Atoi(args[1])
		if term.IsTerminal(1) {
			_, _ = term.MakeRaw(1)
		}
		data := pattern(n)
		for len(data) > 0 {
			k := min(w, len(data))
			os.Stdout.Write(data[:k])
			data = data[k:]
		}
	case "echo": // echo lines until "quit"
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if sc.Text() == "quit" {
				return
			}
			fmt.Printf("got:%s\n", sc.Text())
		}
	case "winch": // report the size at start and after each SIGWINCH, until "q"
		c := make(chan os.Signal, 4)
		signal.Notify(c, syscall.SIGWINCH)
		done := make(chan struct{})
		go func() {
			_, _ = term.MakeRaw(0)
			b := make([]byte, 1)
			for {
				if n, err := os.Stdin.Read(b); err != nil || (n == 1 && b[0] == 'q') {
					close(done)
					return
				}
			}
		}()
		for {
			ws, _ := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
			fmt.Printf("size=%dx%d\r\n", ws.Row, ws.Col)
			select {
			case <-c:
			case <-done:
				return
			}
		}
	case "keyecho": // raw terminal, "R", then each byte read is written back, until 'q'
		_, _ = term.MakeRaw(0)
		os.Stdout.Write([]byte("R"))
		b := make([]byte, 1)
		for {
			if n, err := os.Stdin.Read(b); err != nil || (n == 1 && b[0] == 'q') {
				return
			}
			os.Stdout.Write(b)
		}
	case "pieces": // raw terminal; each byte typed writes the next argument (Go-quoted), then exit
		_, _ = term.MakeRaw(0)
		b := make([]byte, 1)
		for _, a := range args {
			piece, _ := strconv.Unquote(a)
			os.Stdout.Write([]byte(piece))
			if _, err := os.Stdin.Read(b); err != nil {
				return
			}
		}
	case "reraise":
		n, _ := strconv.Atoi(args[0])
		Reraise(syscall.Signal(n))
		fmt.Println("survived")
	default:
		jobChildRole(role, args)
	}
}

// shimResult is what the shim role reports.
type shimResult struct {
	Code   int
	Signal int
	Sent   int
	Err    string
	Tail   []byte
}

// shimRole runs Spawn on our own descriptors, as the real shim does.
func shimRole(resultPath string) {
	var argv []string
	_ = json.Unmarshal([]byte(os.Getenv(argvEnv)), &argv)
	env := childEnv(os.Environ())
	cmd := exec.Command(argv[0], argv[1:]...)
	if role, ok := strings.CutPrefix(argv[0], "role:"); ok {
		exe, _ := os.Executable()
		cmd = exec.Command(exe, argv[1:]...)
		env = append(env, roleEnv+"="+role)
	}
	cmd.Env = env
	if os.Getenv(restEnv) != "" {
		hookRest = func() { os.Stdout.WriteString("signals caught\r\n") }
	}
	tail := NewTail(4096)
	st, err := Spawn(cmd, SpawnOptions{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Tail: tail})
	r := shimResult{Code: st.Code, Signal: int(st.Signal), Sent: int(st.Sent), Tail: tail.Bytes()}
	if err != nil {
		r.Err = err.Error()
	}
	b, _ := json.Marshal(r)
	_ = os.WriteFile(resultPath+".tmp", b, 0o600)
	_ = os.Rename(resultPath+".tmp", resultPath)
}

// childEnv drops the shim role's variables, so the child is not a shim too.
func childEnv(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, shimEnv+"=") && !strings.HasPrefix(e, argvEnv+"=") && !strings.HasPrefix(e, restEnv+"=") {
			out = append(out, e)
		}
	}
	return out
}

// pattern is n bytes covering every byte value, the same in test and child.
func pattern(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

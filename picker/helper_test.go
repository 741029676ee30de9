package picker

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary plays two roles besides running the tests:
//   - picker (roleEnv=pick): what fleetcom does with Pick. It reads a
//     helperConfig from the gob file named by configEnv, picks, writes how
//     that ended to the file named by resultEnv and, like fleetcom, prints
//     the chosen key on stdout; a signal is re-raised after the result is
//     written, as fleetcom's main would.
//   - shell (roleEnv=shell): a shell with job control around the picker:
//     it runs the picker role as a job of its own in the foreground of the
//     terminal, writes its pid to the file named by pidEnv, and exits as it
//     did. The picker's process group is then not orphaned, and may stop.
//   - preview (first argument previewFlag): the preview command. It prints
//     the key it was given and whether the words before it arrived exactly
//     as the picker was asked to pass them (wantEnv).

const (
	roleEnv     = "PICKER_TEST_ROLE"
	configEnv   = "PICKER_TEST_CONFIG"
	resultEnv   = "PICKER_TEST_RESULT"
	wantEnv     = "PICKER_TEST_WANT"
	pidEnv      = "PICKER_TEST_PID"
	previewFlag = "--picker-test-preview"
)

type helperConfig struct {
	Rows       []Row
	Header     []string
	FZF        string
	Preview    []string
	Stdio      bool // pick on stdin and stdout rather than /dev/tty
	PanicAfter int  // panic after this many frames (built-in picker)
	ReadAfter  bool // then read one line from the terminal, cooked
	Multi      bool // choose several (PickMany)
	// Text answers Options.Text: the keys whose text holds a filter, by
	// the filter; asked about any other, it answers nothing.
	Text map[string][]string
	// Later are rows that come after Rows (Options.More), batch by batch,
	// once the file Gate exists.
	Later [][]Row
	Gate  string
}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == previewFlag {
		previewRole(os.Args[2:])
		return
	}
	switch os.Getenv(roleEnv) {
	case "pick":
		os.Exit(pickRole())
	case "shell":
		os.Exit(shellRole())
	}
	os.Exit(m.Run())
}

func previewRole(args []string) {
	if len(args) == 0 {
		fmt.Println("PREVIEW no key")
		return
	}
	words, key := args[:len(args)-1], args[len(args)-1]
	want := strings.Split(os.Getenv(wantEnv), "\x1f")
	fmt.Printf("PREVIEW key=%s argv-exact=%v\n", key, slices.Equal(words, want))
	if !slices.Equal(words, want) {
		fmt.Printf("got %q\nwant %q\n", words, want)
	}
}

func pickRole() int {
	var cfg helperConfig
	f, err := os.Open(os.Getenv(configEnv))
	if err == nil {
		err = gob.NewDecoder(f).Decode(&cfg)
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 3
	}
	o := Options{Header: cfg.Header, FZF: cfg.FZF, Preview: cfg.Preview}
	if cfg.Text != nil {
		o.Text = func(filter string) []string { return cfg.Text[filter] }
	}
	if cfg.Stdio {
		o.In, o.Out = os.Stdin, os.Stdout
	}
	all := cfg.Rows
	if cfg.Later != nil {
		more := make(chan []Row)
		o.More = more
		go func() {
			defer close(more)
			for _, err := os.Stat(cfg.Gate); err != nil; _, err = os.Stat(cfg.Gate) {
				time.Sleep(10 * time.Millisecond)
			}
			for _, batch := range cfg.Later {
				more <- batch
			}
		}()
		for _, batch := range cfg.Later {
			all = append(slices.Clip(all), batch...)
		}
	}
	if cfg.PanicAfter > 0 {
		frames := 0
		afterFrame = func() {
			if frames++; frames == cfg.PanicAfter {
				panic("boom")
			}
		}
	}
	var chosen []int
	if cfg.Multi {
		chosen, err = PickMany(cfg.Rows, o)
	} else {
		var i int
		i, err = Pick(cfg.Rows, o)
		chosen = []int{i}
	}
	var result string
	var sig *SignalError
	switch {
	case err == nil:
		result = "chosen"
		for _, i := range chosen {
			result += " " + all[i].Key
		}
	case errors.As(err, &sig):
		result = "signal " + sig.Signal.String()
	case errors.Is(err, ErrNoMatch):
		result = "no match"
	case errors.Is(err, ErrCancelled):
		result = "cancelled"
	default:
		result = "error " + err.Error()
	}
	if cfg.ReadAfter {
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		result += "\nnext " + strings.TrimRight(line, "\r\n")
	}
	writeResult(result + "\n")
	if err == nil {
		for _, i := range chosen {
			fmt.Println(all[i].Key)
		}
	}
	if sig != nil {
		signal.Reset(sig.Signal)
		syscall.Kill(os.Getpid(), sig.Signal)
		time.Sleep(time.Second)
	}
	if err != nil {
		return 1
	}
	return 0
}

func shellRole() int {
	exe, err := os.Executable()
	if err != nil {
		return 3
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), roleEnv+"=pick")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "shell:", err)
		return 3
	}
	os.WriteFile(os.Getenv(pidEnv), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600)
	cmd.Wait()
	return cmd.ProcessState.ExitCode()
}

// writeResult writes the result file atomically: the test polls for it.
func writeResult(s string) {
	path := os.Getenv(resultEnv)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(s), 0o600); err == nil {
		os.Rename(tmp, path)
	}
}

// writeConfig stores cfg for a helper and returns the environment that
// makes the test binary play it.
func writeConfig(t *testing.T, dir string, cfg helperConfig) (env []string, result string) {
	t.Helper()
	path := filepath.Join(dir, "config.gob")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(f).Encode(cfg); err != nil {
		t.Fatal(err)
	}
	f.Close()
	result = filepath.Join(dir, "result")
	return []string{roleEnv + "=pick", configEnv + "=" + path, resultEnv + "=" + result}, result
}

// waitResult waits for the helper's result file.
func waitResult(t *testing.T, path string, why func() string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no result from the picker after a minute; screen:\n%s", why())
	return ""
}

// needTool returns the path of a program the test needs, or skips the test
// when it is missing, except in CI, which installs every one.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed; CI must install it (.ci/run)", name)
		}
		t.Skipf("%s is not installed: this test needs it (CI installs it)", name)
	}
	return p
}

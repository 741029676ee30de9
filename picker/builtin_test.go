package picker

import (
	"bytes"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/termtest"
)

// The built-in picker on a real PTY (ptyrun_test.go), driven as a user
// would: keys typed, the screen read back, the terminal's modes compared
// with what they were before it started.

func TestBuiltinFilterChooses(t *testing.T) {
	// The helper opens /dev/tty itself, as fleetcom does; afterwards it reads
	// a line from the terminal: the picker must have left no read behind
	// that would take it.
	r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, ReadAfter: true}, 100, 20)
	r.waitOpen()
	r.send("PARSER\r")
	r.waitModes(true)
	r.send("typed after\r")
	result, status, out := r.finish()
	if want := "chosen " + sample[1].Key + "\nnext typed after\n"; result != want || status != "exit 0" {
		t.Errorf("result %q, %s; want %q", result, status, want)
	}
	v := newVT(100, 20)
	v.Write(out)
	if v.Alt() || len(v.Faults()) > 0 {
		t.Errorf("after the picker: alternate screen %v, faults %v", v.Alt(), v.Faults())
	}
}

// TestBuiltinText: rows whose text holds the filter (Options.Text) match
// beside those whose columns hold it, once typing pauses; a filter typed
// on makes them go again.
func TestBuiltinText(t *testing.T) {
	cfg := helperConfig{Rows: sample, Header: sampleHeader, Stdio: true,
		Text: map[string][]string{"flak": {sample[2].Key}}}
	r := startBuiltin(t, cfg, 100, 20)
	r.waitOpen()
	r.send("flak")
	both := func(v *termtest.Screen) bool {
		s := v.Text()
		return strings.Contains(s, "fix the flaky") && strings.Contains(s, "Ünïcode") && !strings.Contains(s, "port the parser")
	}
	r.waitScreen("the row whose title holds it, and the one whose text does", both)
	r.send("y")
	r.waitScreen("only the title's match once the filter is another", func(v *termtest.Screen) bool {
		s := v.Text()
		return strings.Contains(s, "fix the flaky") && !strings.Contains(s, "Ünïcode")
	})
	r.send("\x7f") // back to "flak": asked again
	r.waitScreen("the text's row again", both)
	r.send("\x0e\r") // Down to it, and choose it
	result, status, _ := r.finish()
	if want := "chosen " + sample[2].Key + "\n"; result != want || status != "exit 0" {
		t.Errorf("result %q, %s; want %q", result, status, want)
	}
}

// TestBuiltinRowsLater: the picker opens on the rows it has while the rest
// are still being read (Options.More), says that more are to come, filters
// them as they arrive, and returns a later row's index counted after the
// first ones.
func TestBuiltinRowsLater(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "gate")
	cfg := helperConfig{Rows: sample[:1], Later: [][]Row{sample[1:2], sample[2:]}, Gate: gate, Header: sampleHeader, Stdio: true}
	r := startBuiltin(t, cfg, 100, 20)
	r.waitOpen()
	r.waitScreen("the first row, more to come", func(v *termtest.Screen) bool {
		s := v.Text()
		return strings.Contains(s, "1/1…") && strings.Contains(s, "fix the flaky")
	})
	r.send("日本")
	r.waitScreen("nothing matching yet", func(v *termtest.Screen) bool { return strings.Contains(v.Text(), "0/1…") })
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("the last row matching, and no more to come", func(v *termtest.Screen) bool {
		s := v.Text()
		return strings.Contains(s, "1/3") && !strings.Contains(s, "…") && strings.Contains(s, "Ünïcode")
	})
	r.send("\r")
	result, status, _ := r.finish()
	if want := "chosen " + sample[2].Key + "\n"; result != want || status != "exit 0" {
		t.Errorf("result %q, %s; want %q", result, status, want)
	}
}

func TestBuiltinArrows(t *testing.T) {
	r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true}, 100, 20)
	r.waitOpen()
	r.waitScreen("the first row selected", selectedIs("> anchor"))
	r.send("\x1b[B")
	r.waitScreen("Down to select the second row", selectedIs("> bravo"))
	r.send("\x1b[B")
	r.waitScreen("Down to select the third row", selectedIs("> echo"))
	r.send("\x1b[A")
	r.waitScreen("Up to select the second row", selectedIs("> bravo"))
	r.send("\x10")
	r.waitScreen("Ctrl-P to select the first row", selectedIs("> anchor"))
	r.send("\x0e\x1b[F\x1b[H\x1b[6~\r")
	result, status, _ := r.finish()
	if want := "chosen " + sample[2].Key + "\n"; result != want || status != "exit 0" {
		t.Errorf("result %q, %s; want %q", result, status, want)
	}
}

// TestBuiltinMulti: choosing several, Tab marks or unmarks the selected
// row and moves down, Shift-Tab the same and up, marks outlive a filter,
// and Enter chooses the marked rows in the order given.
func TestBuiltinMulti(t *testing.T) {
	r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true, Multi: true}, 100, 20)
	r.waitOpen()
	r.waitScreen("the first row selected", selectedIs(">  anchor"))
	r.send("\t")
	r.waitScreen("Tab to mark the first row and select the second", selectedIs(">  bravo"))
	r.send("\t")
	r.waitScreen("Tab to mark the second and select the third", selectedIs(">  echo"))
	r.send("\x1b[Z")
	r.waitScreen("Shift-Tab to mark the third and go up", selectedIs(">* bravo"))
	r.send("\x1b[Z")
	r.waitScreen("Shift-Tab to unmark the second and go up", selectedIs(">* anchor"))
	r.send("echo")
	r.waitScreen("the filter to leave the third, marked", selectedIs(">* echo"))
	r.send("\r")
	result, status, _ := r.finish()
	if want := "chosen " + sample[0].Key + " " + sample[2].Key + "\n"; result != want || status != "exit 0" {
		t.Errorf("result %q, %s; want %q", result, status, want)
	}
}

func TestBuiltinEscCancels(t *testing.T) {
	r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true}, 100, 20)
	r.waitOpen()
	r.send("par\x1b")
	result, status, out := r.finish()
	if result != "cancelled\n" || status != "exit 1" {
		t.Errorf("result %q, %s; want cancelled", result, status)
	}
	if !bytes.HasSuffix(out, []byte(leaveSeq)) {
		t.Errorf("the alternate screen was not left last: %q", out[max(len(out)-60, 0):])
	}
}

// TestBuiltinSignals sends each signal while the picker is open: the
// terminal is restored, Pick reports the signal, and the helper, like
// fleetcom, then dies of it.
func TestBuiltinSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			if signal.Ignored(sig) {
				// The helper inherits the disposition, and a signal
				// ignored when the picker opens stays ignored.
				t.Skipf("%v is ignored in this test process (run under nohup?): the picker rightly ignores it too", sig)
			}
			r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true}, 100, 20)
			r.waitOpen()
			if err := r.s.Cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			result, status, out := r.finish()
			if result != "signal "+sig.String()+"\n" || status != (termtest.Status{Signal: sig}).String() {
				t.Errorf("result %q, %s; want the signal", result, status)
			}
			v := newVT(100, 20)
			v.Write(out)
			if v.Alt() {
				t.Error("the alternate screen was not left")
			}
		})
	}
}

func TestBuiltinPanicRestores(t *testing.T) {
	r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true, PanicAfter: 2}, 100, 20)
	r.waitOpen()
	r.send("x") // the second frame panics
	_, status, out := r.finish()
	if status != "exit 2" {
		t.Errorf("the helper ended with %s, want a panic's exit 2", status)
	}
	leave, panicked := bytes.Index(out, []byte(leaveSeq)), bytes.Index(out, []byte("panic: boom"))
	if panicked < 0 || leave < 0 || leave > panicked {
		t.Errorf("want the screen left before the panic is printed; output %q", out)
	}
}

// TestBuiltinHostileTitles shows rows whose titles and directories hold
// escape sequences and other controls: none of their bytes reach the
// terminal as they are; every sequence written is one of the picker's own.
func TestBuiltinHostileTitles(t *testing.T) {
	r := startBuiltin(t, helperConfig{Rows: hostileRows, Header: sampleHeader, Stdio: true}, 120, 20)
	r.waitOpen()
	r.waitScreen("the titles, escaped", func(v *termtest.Screen) bool { return strings.Contains(v.Text(), "^[]0;pwned^Gtitle ^[[31mred") })
	r.send("\x1b")
	_, _, out := r.finish()
	for _, bad := range []string{"\x07", "\x1b]", "\x1b[31m", "\x1b[0m", "\x1b[2J", "\x1b[1;1Hdir", "\xc2\x9b", "\xff", "\u202e", "\t"} {
		if bytes.Contains(out, []byte(bad)) {
			t.Errorf("%q reached the terminal", bad)
		}
	}
	v := newVT(120, 20)
	v.Write(out)
	if len(v.Faults()) > 0 || len(v.Pending()) > 0 {
		t.Errorf("sequences the picker does not write: %v %q", v.Faults(), v.Pending())
	}
}

// TestBuiltinNarrowAndResize starts on a narrow terminal, where lines are
// cut and never wrap, then narrows it further: the picker redraws at the
// new width.
func TestBuiltinNarrowAndResize(t *testing.T) {
	rows := append(append([]Row(nil), sample...), hostileRows[2])
	r := startBuiltin(t, helperConfig{Rows: rows, Header: sampleHeader, Stdio: true}, 36, 10)
	r.waitOpen()
	v := r.screen()
	if len(v.Faults()) > 0 || v.Widest() > 35 {
		t.Fatalf("faults %v, widest column %d; screen:\n%s", v.Faults(), v.Widest(), v.Text())
	}
	lines := v.Lines()
	if !strings.HasPrefix(lines[2], "> anchor") || !strings.HasPrefix(lines[5], "  echo") || !strings.Contains(lines[5], "…") {
		t.Errorf("rows not cut to fit:\n%s", v.Text())
	}

	from := len(r.output())
	if err := r.s.Resize(8, 24); err != nil {
		t.Fatal(err)
	}
	want := newModel(newTable(sampleHeader, rows)).frame(24, 8)
	if err := r.s.WaitUntil(ptyWait, func(out []byte) bool { return bytes.Contains(out[from:], want) }); err != nil {
		t.Fatalf("no redraw at 24×8 after the resize: %v; output since: %q", err, r.output()[from:])
	}
	small := newVT(24, 8)
	small.Write([]byte(enterSeq))
	small.Write(want)
	if !strings.HasPrefix(small.Lines()[2], "> anc…  2h") || len(small.Faults()) > 0 {
		t.Errorf("at 24×8: faults %v\n%s", small.Faults(), small.Text())
	}
	r.send("\r")
	if result, _, _ := r.finish(); result != "chosen "+sample[0].Key+"\n" {
		t.Errorf("result %q", result)
	}
}

// TestBuiltinStopContinue stops the picker with SIGTSTP, run as a job of a
// shell: it gives the terminal back before stopping, and takes it again on
// SIGCONT.
func TestBuiltinStopContinue(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to see the process stopped")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	r := startOnPTY(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true}, 100, 20,
		[]string{roleEnv + "=shell", pidEnv + "=" + pidFile})
	r.waitOpen()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	r.send("\x1b[B")
	r.waitScreen("the second row selected", selectedIs("> bravo"))
	if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !stopped(pid) {
		if time.Now().After(deadline) {
			t.Fatal("the picker did not stop")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !r.modesRestored() {
		t.Error("stopped with the terminal still the picker's")
	}
	// What it wrote before it stopped may still be on its way through the
	// PTY to the reader.
	r.waitScreen("the main screen back while stopped", func(v *termtest.Screen) bool { return !v.Alt() })
	from := len(r.output())
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("the picker back", func(v *termtest.Screen) bool {
		return len(r.output()) > from && v.Alt() && strings.HasPrefix(selected(v), "> bravo")
	})
	r.waitModes(false)
	r.send("\r")
	if result, status, _ := r.finish(); result != "chosen "+sample[1].Key+"\n" || status != "exit 0" {
		t.Errorf("result %q, %s", result, status)
	}
}

// TestBuiltinOrphanIgnoresStop sends SIGTSTP to a picker that leads a
// session of its own: nothing could continue it, so it does not stop.
func TestBuiltinOrphanIgnoresStop(t *testing.T) {
	r := startBuiltin(t, helperConfig{Rows: sample, Header: sampleHeader, Stdio: true}, 100, 20)
	r.waitOpen()
	if err := r.s.Cmd.Process.Signal(syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	r.send("\x1b[B")
	r.waitScreen("the second row selected", selectedIs("> bravo"))
	r.send("\r")
	if result, status, _ := r.finish(); result != "chosen "+sample[1].Key+"\n" || status != "exit 0" {
		t.Errorf("result %q, %s", result, status)
	}
}

package shim

import (
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/termtest"
	"golang.org/x/sys/unix"
)

// The PTY benchmarks pair Spawn with script(1), the anchor of the PTY
// figures (bench/README.md), alternating run by run inside one benchmark (the shared machine
// drifts by 10-30% between runs), and report each side and the ratio as
// metrics. bench/run.sh does the same for whole commands.

func BenchmarkTailWrite(b *testing.B) {
	for _, size := range []int{45, 4 << 10, 64 << 10} {
		b.Run(strconv.Itoa(size)+"B", func(b *testing.B) {
			tail := NewTail(DefaultTailSize)
			p := pattern(size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				tail.Write(p)
			}
		})
	}
}

// benchTerm is a user terminal for benchmarks: a blocking master read with
// plain system calls, so the measuring side adds as little as it can.
type benchTerm = termtest.Pair

func newBenchTerm(b *testing.B) *benchTerm {
	u, err := termtest.OpenPair(50, 200)
	if err != nil {
		b.Skipf("no pty: %v", err)
	}
	b.Cleanup(u.Close)
	return u
}

// drain reads the master until n bytes have come, and reports on done.
func drain(u *benchTerm, n int) <-chan error {
	done := make(chan error, 1)
	go func() {
		buf := make([]byte, 64<<10)
		for got := 0; got < n; {
			k, err := unix.Read(int(u.Master.Fd()), buf)
			if err != nil && err != unix.EINTR {
				done <- err
				return
			}
			got += max(k, 0)
		}
		done <- nil
	}()
	return done
}

func scriptCmd(b *testing.B, role string, args ...string) *exec.Cmd {
	if _, err := exec.LookPath("script"); err != nil {
		b.Skip("no script(1)")
	}
	child := selfCmd(b, role, args...)
	line := "'" + strings.Join(child.Args, "' '") + "'"
	cmd := exec.Command("script", "-qec", line, "/dev/null")
	cmd.Env = child.Env
	return cmd
}

// runScript runs cmd (script -qec …) on u as a shell would: in a session with
// u as its controlling terminal.
func runScript(b *testing.B, u *benchTerm, cmd *exec.Cmd) {
	cmd.Stdin, cmd.Stdout, cmd.Stderr = u.Slave, u.Slave, u.Slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Run(); err != nil {
		b.Fatalf("script: %v", err)
	}
}

func runSpawn(b *testing.B, u *benchTerm, cmd *exec.Cmd, tail *Tail) {
	st, err := Spawn(cmd, SpawnOptions{Stdin: u.Slave, Stdout: u.Slave, Stderr: u.Slave, Tail: tail})
	if err != nil || st.Code != 0 {
		b.Fatalf("Spawn = %+v, %v", st, err)
	}
}

func BenchmarkPTYThroughput(b *testing.B) {
	for _, tc := range []struct {
		name        string
		total, each int
	}{
		{"bulk64KiB", 32 << 20, 64 << 10},
		{"frames16KiB", 16 << 20, 16 << 10},
	} {
		b.Run(tc.name, func(b *testing.B) {
			args := []string{strconv.Itoa(tc.total), strconv.Itoa(tc.each)}
			tail := NewTail(DefaultTailSize)
			var script, spawn time.Duration
			for b.Loop() {
				script += timed(b, tc.total, func(u *benchTerm) { runScript(b, u, scriptCmd(b, "bulk", args...)) })
				spawn += timed(b, tc.total, func(u *benchTerm) { runSpawn(b, u, selfCmd(b, "bulk", args...), tail) })
			}
			mbs := func(d time.Duration) float64 { return float64(tc.total*b.N) / d.Seconds() / (1 << 20) }
			b.ReportMetric(mbs(script), "script-MiB/s")
			b.ReportMetric(mbs(spawn), "spawn-MiB/s")
			b.ReportMetric(script.Seconds()/spawn.Seconds(), "spawn/script-throughput")
		})
	}
}

// timed runs f on a fresh terminal and times it until f returned and the
// terminal has shown n bytes.
func timed(b *testing.B, n int, f func(u *benchTerm)) time.Duration {
	u := newBenchTerm(b)
	done := drain(u, n)
	start := time.Now()
	f(u)
	select {
	case err := <-done:
		if err != nil {
			b.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		b.Fatal("output did not arrive")
	}
	d := time.Since(start)
	u.Close()
	return d
}

// BenchmarkKeystroke times one byte typed, echoed by the child and back on the
// terminal, alternating key by key between script(1) and Spawn.
func BenchmarkKeystroke(b *testing.B) {
	us, up := newBenchTerm(b), newBenchTerm(b)
	scriptDone := make(chan struct{})
	go func() { runScript(b, us, scriptCmd(b, "keyecho")); close(scriptDone) }()
	spawnDone := make(chan struct{})
	go func() { runSpawn(b, up, selfCmd(b, "keyecho"), nil); close(spawnDone) }()
	for _, u := range []*benchTerm{us, up} { // both children up, their terminals raw
		waitByte(b, u, 'R')
	}
	var ts, tp []time.Duration
	for b.Loop() {
		ts = append(ts, roundTrip(b, us))
		tp = append(tp, roundTrip(b, up))
	}
	us.Master.Write([]byte("q"))
	up.Master.Write([]byte("q"))
	<-scriptDone
	<-spawnDone
	slices.Sort(ts)
	slices.Sort(tp)
	q := func(d []time.Duration, f float64) float64 {
		return float64(d[int(f*float64(len(d)-1))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(q(ts, .5), "script-p50-µs")
	b.ReportMetric(q(tp, .5), "spawn-p50-µs")
	b.ReportMetric(q(ts, .99), "script-p99-µs")
	b.ReportMetric(q(tp, .99), "spawn-p99-µs")
	b.ReportMetric(q(tp, .5)/q(ts, .5), "spawn/script-p50")
}

func roundTrip(b *testing.B, u *benchTerm) time.Duration {
	fd := int(u.Master.Fd())
	one := []byte{'k'}
	start := time.Now()
	if _, err := unix.Write(fd, one); err != nil {
		b.Fatal(err)
	}
	for {
		n, err := unix.Read(fd, one)
		if n == 1 {
			return time.Since(start)
		}
		if err != nil && err != unix.EINTR {
			b.Fatal(fmt.Errorf("read echo: %w", err))
		}
	}
}

func waitByte(b *testing.B, u *benchTerm, c byte) {
	one := []byte{0}
	for one[0] != c {
		if _, err := unix.Read(int(u.Master.Fd()), one); err != nil && err != unix.EINTR {
			b.Fatal(err)
		}
	}
}

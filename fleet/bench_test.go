package fleet

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// BenchmarkRunning50 is what `fleetcom status` does with 50 live runs, tmux
// aside: read the live folder, check each process, bring each state up to
// date with its agent's own view and order them (titles come from the
// caller: the command reads them from the index). bench/status.sh times the
// whole command.
func BenchmarkRunning50(b *testing.B) {
	if _, ok := Identify(os.Getpid()); !ok {
		b.Skip("process identity is not read on this system")
	}
	d := OpenDir(filepath.Join(b.TempDir(), "live"))
	home := b.TempDir()
	var names []string // the agents whose IDs are UUIDs
	for _, a := range agents.All() {
		if a.ID.Valid(uid) {
			names = append(names, a.Name)
		}
	}
	for i := range 50 {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		p, ok := Identify(cmd.Process.Pid)
		if !ok {
			b.Fatal("no identity")
		}
		r := Run{Tool: names[i%len(names)], ID: fmt.Sprintf("0f8b2c3e-4d5a-4b6c-8d7e-%012x", i), Cwd: "/srv/p",
			Home: home, State: harness.Working, Since: time.Now(), Started: time.Now(), Proc: p, Shim: os.Getpid(), TTY: "/dev/pts/1"}
		if err := d.Write(&r); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		runs := d.Running()
		if len(runs) != 50 {
			b.Fatalf("%d runs", len(runs))
		}
		Statuses(runs, nil, nil)
	}
}

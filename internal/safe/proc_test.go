package safe

import (
	"os"
	"os/exec"
	"testing"
)

func TestReadProcAndDescends(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system: ReadProc reports nothing, by design")
	}
	self, ok := ReadProc(os.Getpid())
	if !ok || self.PPID != os.Getppid() || self.Start == "" {
		t.Fatalf("ReadProc(self) = %+v, %v; parent is %d", self, ok, os.Getppid())
	}
	child := exec.Command("sh", "-c", "sleep 30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	if !Descends(child.Process.Pid, os.Getpid()) || !Descends(os.Getpid(), os.Getpid()) {
		t.Error("a child does not descend from its parent")
	}
	if Descends(os.Getpid(), child.Process.Pid) || Descends(1, os.Getpid()) || Descends(os.Getpid(), 0) {
		t.Error("descent claimed where there is none")
	}
	if _, ok := ReadProc(1 << 30); ok {
		t.Error("a process that does not exist was read")
	}
}

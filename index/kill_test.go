package index

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// TestMain runs a refresh in a child process when the test asks for one
// (killChild).
func TestMain(m *testing.M) {
	if spec := os.Getenv("FLEETCOM_INDEX_TEST_CHILD"); spec != "" {
		dir, home, _ := strings.Cut(spec, "\n")
		os.Exit(killChild(dir, home))
	}
	os.Exit(m.Run())
}

// killChild refreshes the toy home's index in small steps, saying after
// each committed step how far it came, and waits to be killed after the
// first.
func killChild(dir, home string) int {
	batchBytes, stepTime = 1<<10, 0
	x, err := Open(dir, Options{Agents: []harness.Agent{toyAgent}, Homes: func(harness.Agent) []string { return []string{home} }, Text: true})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	_, err = x.Refresh(Scope{Full: true, Progress: func(p Progress) {
		if p.FilesDone > 0 {
			fmt.Printf("done %d\n", p.FilesDone)
			select {} // the parent kills us here, mid-refresh
		}
	}})
	fmt.Println("error", err)
	return 1
}

// A refresh killed midway leaves the index as its last committed step
// left it: whole, readable, and brought up to date by the next refresh.
func TestKilledRefreshLeavesTheLastCompleteState(t *testing.T) {
	h := newToyHome(t)
	for i := 0; i < 200; i++ {
		h.write("/d", uuidN(i), "C /d", "P killed words "+strings.Repeat("x", 600), "R reply")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLEETCOM_INDEX_TEST_CHILD="+dir+"\n"+h.home)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if err != nil || !strings.HasPrefix(line, "done ") {
		t.Fatalf("child: %q, %v", line, err)
	}
	var done int
	fmt.Sscanf(line, "done %d", &done)
	if done <= 0 || done >= 200 {
		t.Fatalf("the child committed %d of 200 files before it was killed; want some, not all", done)
	}
	x := h.open(dir, true)
	if err := x.db.c.Exec(`PRAGMA integrity_check`); err != nil {
		t.Fatal(err)
	}
	if got := search(t, x, "killed"); len(got) != done {
		t.Errorf("after the kill the index finds %d conversations; the child had committed %d", len(got), done)
	}
	refresh(t, x, Scope{Full: true})
	if got := search(t, x, "killed"); len(got) != 200 {
		t.Errorf("after the next refresh the index finds %d of 200", len(got))
	}
}

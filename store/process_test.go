package store

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Subprocess roles. The test binary runs them instead of the tests when
// childEnv names them (see TestMain); they report failures on stderr and by
// exit status.

const (
	envDir    = "FLEETCOM_STORE_TEST_DIR"
	envN      = "FLEETCOM_STORE_TEST_N"
	envCwd    = "FLEETCOM_STORE_TEST_CWD"
	envShared = "FLEETCOM_STORE_TEST_SHARED"
	envSeq    = "FLEETCOM_STORE_TEST_SEQ"
)

// sharedID is the conversation every writer updates at once.
var sharedID = testID(0xabcdef)

func childStore() (*Store, error) {
	return Open(os.Getenv(envDir), Config{
		Valid: testValid,
		Warn:  func(m string) { fmt.Fprintln(os.Stderr, "warning:", m); os.Exit(2) },
		// Two hundred writers queue for the shared record's lock: on a
		// loaded machine the queue outlasts the default wait, and a
		// writer that gives up is not what this test is about.
		LockWait: 10 * time.Minute,
	})
}

// writerChild waits for its stdin to close, so all writers start together,
// then writes its own record and an update to the shared one.
func writerChild() int {
	n, _ := strconv.Atoi(os.Getenv(envN))
	s, err := childStore()
	if err == nil {
		io.Copy(io.Discard, os.Stdin)
		_, err = s.Put(rec(tools[n%3], n, os.Getenv(envCwd)))
	}
	if err == nil {
		shared := rec("anchor", 0, os.Getenv(envShared))
		shared.ID = sharedID
		shared.Started = at(60 + n)
		shared.Ended, shared.Exit = ptr(at(1000+n)), ptr(n)
		shared.Resumable = n == 137
		shared.Title = fmt.Sprint("title ", n)
		_, err = s.Put(shared)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestConcurrentWriters starts 200 writer processes at once, half in one
// directory and half each in its own, all also updating one shared record.
func TestConcurrentWriters(t *testing.T) {
	const writers = 200
	stateDir := filepath.Join(t.TempDir(), "state")
	root := physicalTempDir(t)
	same, shared := filepath.Join(root, "same"), filepath.Join(root, "shared")
	gate, release, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer gate.Close()
	cmds := make([]*exec.Cmd, writers)
	outs := make([]strings.Builder, writers)
	for n := range writers {
		cwd := same
		if n%2 == 1 {
			cwd = filepath.Join(root, fmt.Sprint("own-", n))
		}
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=writer", envDir+"="+stateDir,
			envN+"="+strconv.Itoa(n), envCwd+"="+cwd, envShared+"="+shared)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = gate, &outs[n], &outs[n]
		if err := cmd.Start(); err != nil {
			release.Close()
			t.Fatal(err)
		}
		cmds[n] = cmd
	}
	release.Close()
	for n, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v: %s", n, err, outs[n].String())
		}
	}

	s, w := openAt(t, stateDir)
	all, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != writers+1 {
		t.Errorf("All has %d records, want %d", len(all), writers+1)
	}
	for n := range writers {
		r, ok, err := s.Get(tools[n%3], testID(n))
		if err != nil || !ok {
			t.Errorf("record %d missing: %v", n, err)
		}
		if want := same; n%2 == 0 && r.Cwd != want {
			t.Errorf("record %d in %q", n, r.Cwd)
		}
	}
	if got, _ := s.Dir(same); len(got) != writers/2 {
		t.Errorf("Dir(same) has %d records, want %d", len(got), writers/2)
	}
	for n := 1; n < writers; n += 2 {
		if got, _ := s.Dir(filepath.Join(root, fmt.Sprint("own-", n))); len(got) != 1 || got[0].ID != testID(n) {
			t.Errorf("Dir(own-%d) = %v", n, ids(got))
		}
	}
	// Every update to the shared record was merged under the lock: none of
	// them was lost, or the earliest start or the one resumable run would be.
	r, ok, _ := s.Get("anchor", sharedID)
	if !ok || !r.Started.Equal(at(60)) || !r.Resumable || r.Ended == nil || r.Exit == nil {
		t.Errorf("shared record lost an update: %+v", r)
	} else if !r.Ended.Equal(at(1000 + *r.Exit)) {
		t.Errorf("shared record mixes two runs: Ended %v Exit %d", r.Ended, *r.Exit)
	}
	entries, _ := os.ReadDir(filepath.Join(stateDir, "records"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

// looperChild writes until it is killed: updates to a few fixed records and
// now and then a new one, printing "<tool> <id> <seq>" after each Put returns.
func looperChild() int {
	seq, _ := strconv.Atoi(os.Getenv(envSeq))
	cwds := strings.Split(os.Getenv(envCwd), "\n")
	s, err := childStore()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; ; i++ {
		seq++
		r := rec(tools[i%3], 0x1000+i%5, cwds[i%len(cwds)])
		if i%4 == 3 {
			r.ID = safe.NewUUID()
		}
		r.Ended, r.Exit = ptr(at(seq)), ptr(seq)
		r.Title = strings.Repeat("x", i%700) // vary the file size
		if _, err = s.Put(r); err != nil {
			break
		}
		fmt.Printf("%s %s %d\n", r.Tool, r.ID, seq)
	}
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// TestKillMidWrite kills a writing process at random moments, many times, and
// checks after each kill that the store is whole and holds every write the
// child saw complete.
func TestKillMidWrite(t *testing.T) {
	const rounds = 60
	stateDir := filepath.Join(t.TempDir(), "state")
	root := physicalTempDir(t)
	cwds := []string{filepath.Join(root, "a"), filepath.Join(root, "b b"), filepath.Join(root, "ç")}
	done := map[string]int{} // "<tool>-<id>" → highest completed seq
	for round := range rounds {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=looper", envDir+"="+stateDir,
			envSeq+"="+strconv.Itoa(round*1_000_000), envCwd+"="+strings.Join(cwds, "\n"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		target, seen := 1+rand.IntN(25), 0
		for lines.Scan() {
			var tool, id string
			var seq int
			if _, err := fmt.Sscan(lines.Text(), &tool, &id, &seq); err != nil {
				t.Fatalf("child said %q", lines.Text())
			}
			done[tool+"-"+id] = seq
			if seen++; seen == target {
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
				cmd.Process.Kill()
			}
		}
		if err := cmd.Wait(); seen < target {
			t.Fatalf("round %d: child ended before the kill: %v: %s", round, err, stderr.String())
		}
		checkAfterKill(t, stateDir, cwds, done)
	}
	// Temp files left behind show that kills landed inside writes.
	entries, _ := os.ReadDir(filepath.Join(stateDir, "records"))
	temps := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			temps++
		}
	}
	t.Logf("%d rounds, %d records written, %d files, %d interrupted writes left temp files",
		rounds, len(done), len(entries), temps)
}

func checkAfterKill(t *testing.T, stateDir string, cwds []string, done map[string]int) {
	t.Helper()
	s, w := openAt(t, stateDir)
	all, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Record{}
	for _, r := range all {
		got[r.Tool+"-"+r.ID] = r
	}
	for key, seq := range done {
		r, ok := got[key]
		if !ok {
			t.Fatalf("completed write of %s lost", key)
		}
		if r.Exit == nil || *r.Exit < seq {
			t.Fatalf("%s: Exit %v, want at least %d", key, r.Exit, seq)
		}
	}
	byDir := 0
	for _, c := range cwds {
		recs, err := s.Dir(c)
		if err != nil {
			t.Fatal(err)
		}
		byDir += len(recs)
	}
	if byDir != len(all) {
		t.Fatalf("directory lookups find %d records, All finds %d", byDir, len(all))
	}
	if m := w.take(); len(m) != 0 {
		t.Fatalf("warnings after a kill: %q", m)
	}
}

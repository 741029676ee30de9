package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// physDir is a scratch directory in the physical form callers pass.
func physDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// settle dates every day directory of a home at one fixed past moment, as if
// nothing had been written there lately.
func settle(t testing.TB, home string) {
	t.Helper()
	when := time.Unix(1_700_000_000, 0)
	days, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*"))
	for _, d := range days {
		if err := os.Chtimes(d, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

func discoverIDs(t *testing.T, home, cwd, index string) []string {
	t.Helper()
	found, err := Agent.Discover(home, cwd, index)
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return harnesstest.IDs(found)
}

// An update re-reads only the day directories whose mtime changed: a file
// slipped into a settled day behind the index's back stays unseen until the
// directory's mtime moves, which proves the index is what answers.
func TestIndexReadsOnlyChangedDays(t *testing.T) {
	home, cwd, index := physDir(t), physDir(t), physDir(t)
	first := harnesstest.V7At(time.Now().Add(-time.Hour))
	writeRollout(t, home, first, cwd, false, "first")
	settle(t, home)
	if diff := cmp.Diff([]string{first}, discoverIDs(t, home, cwd, index)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	sneaked := harnesstest.V7At(time.Now().Add(-time.Hour))
	day := filepath.Dir(writeRollout(t, home, sneaked, cwd, false, "sneaked"))
	settle(t, home)
	if got := discoverIDs(t, home, cwd, index); !cmp.Equal(got, []string{first}) {
		t.Fatalf("a settled day was read again: %v", got)
	}
	harnesstest.Age(t, day, 0)
	if got := discoverIDs(t, home, cwd, index); len(got) != 2 {
		t.Fatalf("a changed day was not read again: %v", got)
	}
}

// A rollout whose first line was incomplete is read again on the next update
// even though appending to it leaves its day directory's mtime alone.
func TestIndexPending(t *testing.T) {
	home, cwd, index := physDir(t), physDir(t), physDir(t)
	_, partial := homeWithRollouts(t, home, cwd)
	settle(t, home)
	if got := discoverIDs(t, home, cwd, index); len(got) != 2 {
		t.Fatalf("before: %v", got)
	}
	before, _ := os.Stat(filepath.Dir(mustGlob(t, home, partial)))
	completeRollout(t, home, partial, cwd)
	after, _ := os.Stat(filepath.Dir(mustGlob(t, home, partial)))
	if !before.ModTime().Equal(after.ModTime()) {
		t.Fatal("appending moved the day directory's mtime: this test proves nothing")
	}
	got := discoverIDs(t, home, cwd, index)
	if len(got) != 3 || got[0] != partial {
		t.Fatalf("the completed rollout was not found: %v", got)
	}
}

func mustGlob(t *testing.T, home, id string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*-"+id+".jsonl"))
	if len(m) != 1 {
		t.Fatalf("rollout of %s: %v", id, m)
	}
	return m[0]
}

// Titles are read lazily and again while a rollout has none; the order
// follows each rollout's own mtime, so a resumed thread comes first.
func TestIndexTitlesAndOrder(t *testing.T) {
	home, cwd, index := physDir(t), physDir(t), physDir(t)
	old := harnesstest.V7At(time.Now().Add(-3 * time.Hour))
	harnesstest.Age(t, writeRollout(t, home, old, cwd, false, "old"), 3*time.Hour)
	fresh := harnesstest.V7At(time.Now().Add(-time.Hour))
	p := writeRollout(t, home, fresh, cwd, false, "")
	harnesstest.Age(t, p, time.Hour)
	settle(t, home)
	found, _ := Agent.Discover(home, cwd, index)
	if diff := cmp.Diff([]string{fresh, old}, harnesstest.IDs(found)); diff != "" || found[0].Title != "" || found[1].Title != "old" {
		t.Fatalf("first: %+v", found)
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"event_msg","payload":{"type":"user_message","message":"now titled"}}` + "\n")
	f.Close()
	harnesstest.Age(t, p, 2*time.Hour)
	harnesstest.Age(t, mustGlob(t, home, old), 0) // resumed: written just now
	found, _ = Agent.Discover(home, cwd, index)
	if diff := cmp.Diff([]string{old, fresh}, harnesstest.IDs(found)); diff != "" || found[1].Title != "now titled" {
		t.Fatalf("after: %+v", found)
	}
	os.Remove(mustGlob(t, home, old))
	if got := discoverIDs(t, home, cwd, index); !cmp.Equal(got, []string{fresh}) {
		t.Fatalf("a removed rollout is still found: %v", got)
	}
}

// withLine adds a line to an index file and keeps its trailer right, so the
// line itself is what the reader must judge.
func withLine(line string) func(string) string {
	return func(s string) string {
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		body := append([]string{line}, lines[1:len(lines)-1]...)
		out := append(append([]string{lines[0]}, body...), fmt.Sprintf("end %d", len(body)))
		return strings.Join(out, "\n") + "\n"
	}
}

// A damaged index is discarded and rebuilt, and never trusted for IDs.
func TestIndexDamage(t *testing.T) {
	home, cwd := physDir(t), physDir(t)
	want, _ := homeWithRollouts(t, home, cwd)
	settle(t, home)
	root := func(index string) string { return filepath.Join(index, safe.PathKey(home)) }
	shard := func(index string) string { return filepath.Join(root(index), "cwd", safe.PathKey(cwd)) }
	rewrite := func(path string, f func(string) string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(f(string(b))), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cut := func(s string) string { return s[:len(s)*2/3] }
	anyMonth := func(index string) string {
		m, _ := filepath.Glob(filepath.Join(root(index), "month", "*"))
		return m[0]
	}
	cases := map[string]func(index string){
		"garbage table": func(ix string) {
			rewrite(filepath.Join(root(ix), "days"), func(string) string { return "\x00garbage\n" })
		},
		"truncated table": func(ix string) { rewrite(filepath.Join(root(ix), "days"), cut) },
		"empty table":     func(ix string) { rewrite(filepath.Join(root(ix), "days"), func(string) string { return "" }) },
		"table removed":   func(ix string) { os.Remove(filepath.Join(root(ix), "days")) },
		"truncated shard": func(ix string) { rewrite(shard(ix), cut) },
		"shard traversal": func(ix string) { rewrite(shard(ix), withLine("../../../etc/passwd\t-1\t")) },
		"shard bad id": func(ix string) {
			rewrite(shard(ix), func(s string) string { return strings.Replace(s, want[0], strings.ToUpper(want[0]), 1) })
		},
		"shard is a directory": func(ix string) { os.Remove(shard(ix)); os.Mkdir(shard(ix), 0o700) },
		"truncated month":      func(ix string) { rewrite(anyMonth(ix), cut) },
		"month garbage key":    func(ix string) { rewrite(anyMonth(ix), withLine("01\tx\t$(x)")) },
		"month bad day":        func(ix string) { rewrite(anyMonth(ix), withLine("1/\tx\t-")) },
		"stale entry": func(ix string) { // well-formed, names a rollout that is not there
			gone := fmt.Sprintf("2020/01/02/rollout-2020-01-02T00-00-00-%s.jsonl", harnesstest.UUID(t))
			rewrite(shard(ix), withLine(gone+"\t-1\tphantom"))
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			index := physDir(t)
			if diff := cmp.Diff(want, discoverIDs(t, home, cwd, index)); diff != "" {
				t.Fatalf("first (-want +got):\n%s", diff)
			}
			damage(index)
			if diff := cmp.Diff(want, discoverIDs(t, home, cwd, index)); diff != "" {
				t.Fatalf("after damage (-want +got):\n%s", diff)
			}
			if _, _, err := readIndexFile(filepath.Join(root(index), "days"), "days"); err != nil {
				t.Errorf("the index was not rebuilt: %v", err)
			}
		})
	}
}

// Completions run at once share the index: each sees the whole answer, and
// no reader ever meets a torn file.
func TestIndexConcurrent(t *testing.T) {
	home, cwd, index := physDir(t), physDir(t), physDir(t)
	want, _ := homeWithRollouts(t, home, cwd)
	for i := 0; i < 40; i++ {
		writeRollout(t, home, harnesstest.V7At(time.Now().Add(-time.Duration(i)*25*time.Hour)), fmt.Sprintf("/w/%d", i%4), false, "x")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found, err := Agent.Discover(home, cwd, index)
			if err != nil || !cmp.Equal(want, harnesstest.IDs(found)) {
				errs <- fmt.Sprintf("%v %v", harnesstest.IDs(found), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// One index directory serves several Codex homes without mixing them.
func TestIndexPerHome(t *testing.T) {
	a, b, cwd, index := physDir(t), physDir(t), physDir(t), physDir(t)
	ida, idb := harnesstest.V7At(time.Now()), harnesstest.V7At(time.Now())
	writeRollout(t, a, ida, cwd, false, "a")
	writeRollout(t, b, idb, cwd, false, "b")
	if got := discoverIDs(t, a, cwd, index); !cmp.Equal(got, []string{ida}) {
		t.Errorf("home a: %v", got)
	}
	if got := discoverIDs(t, b, cwd, index); !cmp.Equal(got, []string{idb}) {
		t.Errorf("home b: %v", got)
	}
	if got := discoverIDs(t, physDir(t), cwd, index); len(got) != 0 {
		t.Errorf("empty home: %v", got)
	}
}

// Temp files left by killed writers are swept once old enough.
func TestIndexSweeps(t *testing.T) {
	home, cwd, index := physDir(t), physDir(t), physDir(t)
	writeRollout(t, home, harnesstest.V7At(time.Now()), cwd, false, "x")
	discoverIDs(t, home, cwd, index)
	root := filepath.Join(index, safe.PathKey(home))
	old, young := filepath.Join(root, ".tmp-old"), filepath.Join(root, ".tmp-young")
	harnesstest.WriteFile(t, old, "x")
	harnesstest.WriteFile(t, young, "x")
	harnesstest.Age(t, old, time.Hour)
	writeRollout(t, home, harnesstest.V7At(time.Now()), cwd, false, "y")
	discoverIDs(t, home, cwd, index)
	if _, err := os.Stat(old); err == nil {
		t.Error("an old temp file was left")
	}
	if _, err := os.Stat(young); err != nil {
		t.Error("a young temp file, maybe a live writer's, was removed")
	}
}

// An index directory that cannot be written costs speed, not results.
func TestIndexUnusable(t *testing.T) {
	home, cwd := physDir(t), physDir(t)
	want, _ := homeWithRollouts(t, home, cwd)
	blocker := filepath.Join(physDir(t), "file")
	harnesstest.WriteFile(t, blocker, "not a directory")
	found, err := Agent.Discover(home, cwd, filepath.Join(blocker, "index"))
	if err == nil {
		t.Error("an unusable index was not reported")
	}
	if diff := cmp.Diff(want, harnesstest.IDs(found)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// benchHome writes a Codex home of 50,000 rollouts over two years
// (about 70 per day directory) from 20 directories, one in twenty of them a
// subagent's, shaped like 0.171's (base instructions cut to 4 KB; real ones
// are about 20 KB, which the first-line reader skips the same way). Day
// directories are dated on their day, as in a home used over time.
func benchHome(b *testing.B) (home, cwd string) {
	home = physDir(b)
	const n, dirs = 50000, 20
	end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.Local)
	step := 2 * 365 * 24 * time.Hour / n
	instructions := strings.Repeat("You are a coding agent running in a terminal. ", 90)
	days := map[string]time.Time{}
	for i := 0; i < n; i++ {
		at := end.Add(-time.Duration(i) * step)
		id := harnesstest.V7At(at)
		dir := dayDir(home, at)
		if _, ok := days[dir]; !ok {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			days[dir] = at
		}
		source := "user"
		if i%20 == 7 {
			source = "subagent"
		}
		cwd := fmt.Sprintf("/work/project-%02d", i%dirs)
		stamp := at.UTC().Format(time.RFC3339Nano)
		data := `{"timestamp":"` + stamp + `","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,"session_id":"` + id +
			`","id":"` + id + `","timestamp":"` + stamp + `","cwd":"` + cwd + `","runtime_workspace_roots":["` + cwd +
			`"],"originator":"codex_cli_rs","cli_version":"0.171.0","source":"cli","thread_source":"` + source +
			`","model_provider":"openai","base_instructions":{"text":"` + instructions + `"}}}` + "\n" +
			`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context><cwd>` + cwd + `</cwd></environment_context>"}]}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"user_message","message":"task number ` + fmt.Sprint(i) + `"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}` + "\n"
		name := fmt.Sprintf("rollout-%s-%s.jsonl", at.Format("2006-01-02T15-04-05"), id)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(p, at, at)
	}
	for dir, at := range days {
		os.Chtimes(dir, at, at)
	}
	return home, "/work/project-00"
}

// BenchmarkDiscover times discovery in the 50,000-rollout home against
// the same call on an empty home, paired iteration by iteration: cold (no
// index yet), warm (index up to date) and update (one rollout added since the
// last call). ns/op is the big home alone; the metrics give both and their
// ratio.
func BenchmarkDiscover(b *testing.B) {
	home, cwd := benchHome(b)
	empty := physDir(b)
	b.Run("cold", func(b *testing.B) { pairedDiscover(b, home, empty, cwd, "cold") })
	b.Run("warm", func(b *testing.B) { pairedDiscover(b, home, empty, cwd, "warm") })
	b.Run("update", func(b *testing.B) { pairedDiscover(b, home, empty, cwd, "update") })
}

func pairedDiscover(b *testing.B, home, empty, cwd, mode string) {
	index, emptyIndex := physDir(b), physDir(b)
	discover := func(home, index string, min int) {
		found, err := Agent.Discover(home, cwd, index)
		if err != nil || len(found) < min {
			b.Fatalf("found %d, %v", len(found), err)
		}
	}
	if mode != "cold" {
		discover(home, index, 2000)
		discover(empty, emptyIndex, 0)
	}
	var big, none time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		switch mode {
		case "cold":
			os.RemoveAll(index)
			os.RemoveAll(emptyIndex)
		case "update":
			writeRollout(b, home, harnesstest.V7At(time.Now()), cwd, false, "new")
		}
		b.StartTimer()
		start := time.Now()
		discover(home, index, 2000)
		big += time.Since(start)
		b.StopTimer()
		start = time.Now()
		discover(empty, emptyIndex, 0)
		none += time.Since(start)
		b.StartTimer()
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / 1e6 }
	b.ReportMetric(ms(big), "ms/50k")
	b.ReportMetric(ms(none), "ms/empty")
	b.ReportMetric(float64(big)/float64(none), "x-empty")
}

// A rollout replaced in place by one of another directory (fleetcom's move
// rewrites session_meta's cwd and renames the file over the old one) leaves
// the old directory's shard and joins the new one's.
func TestIndexRewrittenInPlace(t *testing.T) {
	home, old, moved, index := physDir(t), physDir(t), physDir(t), physDir(t)
	id := harnesstest.V7At(time.Now().Add(-time.Hour))
	path := writeRollout(t, home, id, old, false, "hello")
	settle(t, home)
	if diff := cmp.Diff([]string{id}, discoverIDs(t, home, old, index)); diff != "" {
		t.Fatalf("before the move (-want +got):\n%s", diff)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.ReplaceAll(string(data), `"cwd":"`+old+`"`, `"cwd":"`+moved+`"`))
	if err := safe.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// The rename moved the day's mtime; make sure it differs from the
	// settled one whatever the clock's granularity.
	now := time.Now()
	os.Chtimes(filepath.Dir(path), now, now)
	if got := discoverIDs(t, home, old, index); len(got) != 0 {
		t.Errorf("the old directory still finds %v", got)
	}
	if diff := cmp.Diff([]string{id}, discoverIDs(t, home, moved, index)); diff != "" {
		t.Errorf("the new directory (-want +got):\n%s", diff)
	}
}

// The index's files are fleetcom's own: a FIFO at its lock or at a file,
// or a symlink to a file elsewhere, neither blocks discovery nor is read
// as the index. The results stay complete.
func TestIndexPlantedFiles(t *testing.T) {
	home, cwd, index := physDir(t), physDir(t), physDir(t)
	id := harnesstest.V7At(time.Now().Add(-time.Hour))
	writeRollout(t, home, id, cwd, false, "planted")
	settle(t, home)
	discoverIDs(t, home, cwd, index) // builds the index
	dir := filepath.Join(index, safe.PathKey(home))
	elsewhere := filepath.Join(t.TempDir(), "days")
	os.WriteFile(elsewhere, []byte(indexMagic+" days \"x\"\nbogus\nend 1\n"), 0o600)
	for _, plant := range []func(p string) error{
		func(p string) error { return syscall.Mkfifo(p, 0o600) },
		func(p string) error { return os.Symlink(elsewhere, p) },
	} {
		for _, name := range []string{"lock", "days"} {
			p := filepath.Join(dir, name)
			os.Remove(p)
			if err := plant(p); err != nil {
				t.Fatal(err)
			}
			done := make(chan []harness.Found, 1)
			go func() { found, _ := Agent.Discover(home, cwd, index); done <- found }()
			select {
			case found := <-done:
				if got := harnesstest.IDs(found); !cmp.Equal(got, []string{id}) {
					t.Errorf("%s planted: found %v", name, got)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("discovery blocked on a planted %s", name)
			}
			os.Remove(p)
		}
	}
	if b, _ := os.ReadFile(elsewhere); !strings.Contains(string(b), "bogus") {
		t.Errorf("the file a symlink named was changed: %q", b)
	}
}

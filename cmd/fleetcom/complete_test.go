package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// fakeIDs is an idSource over a fixed list: one session per tool in ".",
// and one claude session in "/elsewhere".
func fakeIDs(dir, tool string, _ catalog.Listing, _ string) []candidate {
	all := map[string][]candidate{
		"":           {{"11111111-1111-4111-8111-111111111111", "claude, 1h, newest"}, {"22222222-2222-4222-8222-222222222222", "codex, 2h"}, {"33333333-3333-4333-8333-333333333333", "grok, 3d"}},
		"/elsewhere": {{"44444444-4444-4444-8444-444444444444", "claude, 5m"}},
	}[dir]
	var out []candidate
	for _, c := range all {
		if tool == "" || strings.HasPrefix(c.desc, tool+",") {
			out = append(out, c)
		}
	}
	return out
}

func values(cands []candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.value)
	}
	return out
}

// agentsWithPrefix are the registered agents whose names begin with p.
func agentsWithPrefix(p string) []string {
	var out []string
	for _, n := range agents.Names() {
		if strings.HasPrefix(n, p) {
			out = append(out, n)
		}
	}
	return out
}

func TestComplete(t *testing.T) {
	names := agents.Names()
	const id1, id2, id3 = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"
	tests := []struct {
		words []string
		want  []string
	}{
		{[]string{""}, []string{"resume", "pick", "search", "status", "ps", "restore", "list", "forget", "prune", "export", "import", "move", "run", "init", "completion", "shims", "index", "doctor", "version", "help"}},
		{[]string{"search", "-"}, []string{"--tool", "-C", "--since", "--limit", "--json", "-i", "--exec", "--force", "--switch"}},
		{[]string{"index", "-"}, []string{"--status", "--rebuild", "--purge"}},
		{[]string{"re"}, []string{"resume", "restore"}},
		{[]string{"resu"}, []string{"resume"}},
		{[]string{"-"}, []string{"--help", "--version"}},
		{[]string{"nosuch", ""}, nil},
		{[]string{"resume", ""}, append(slices.Clone(names), id1, id2, id3)},
		{[]string{"resume", "c"}, agentsWithPrefix("c")},
		{[]string{"resume", "2"}, []string{id2}},
		{[]string{"resume", "claude", ""}, []string{id1}},
		{[]string{"resume", "grok", "3333"}, []string{id3}},
		{[]string{"resume", id1, ""}, nil},
		{[]string{"resume", "claude", id1, ""}, nil},
		{[]string{"resume", "-"}, []string{"-C", "--exec", "--json", "-i", "--all", "--force", "--switch"}},
		{[]string{"resume", "--exec", "-"}, []string{"-C", "--json", "-i", "--all", "--force", "--switch"}},
		{[]string{"pick", "-"}, []string{"-C", "--all", "--exec", "--force", "--switch"}},
		{[]string{"resume", "-C", ""}, []string{dirsDirective}},
		{[]string{"resume", "-C", "/elsewhere", ""}, append(slices.Clone(names), "44444444-4444-4444-8444-444444444444")},
		{[]string{"resume", "-C=/elsewhere", "claude", ""}, []string{"44444444-4444-4444-8444-444444444444"}},
		{[]string{"resume", "--exec", "codex", ""}, []string{id2}},
		{[]string{"list", "-"}, []string{"-C", "--all", "--json", "--empty"}},
		{[]string{"list", "--all", "--"}, []string{"--json", "--empty"}},
		{[]string{"list", "-C", "x"}, []string{dirsDirective}},
		{[]string{"list", ""}, nil},
		{[]string{"forget", id2, ""}, []string{id1, id3}},
		{[]string{"prune", "-"}, []string{"--dry-run"}},
		{[]string{"run", ""}, names},
		{[]string{"run", "--", "co"}, agentsWithPrefix("co")},
		{[]string{"run", "claude", "-"}, nil},
		{[]string{"init", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"completion", "z"}, []string{"zsh"}},
		{[]string{"completion", "zsh", ""}, nil},
		{[]string{"shims", ""}, []string{"install", "remove"}},
		{[]string{"shims", "--dir", ""}, []string{dirsDirective}},
		{[]string{"shims", "--dir", "/x", "r"}, []string{"remove"}},
		{[]string{"doctor", "-"}, []string{"--json"}},
		{[]string{"help", "d"}, []string{"doctor"}},
		{[]string{"version", ""}, nil},
	}
	for _, tt := range tests {
		got := values(complete(tt.words, fakeIDs))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("complete(%q) (-want +got):\n%s", tt.words, diff)
		}
	}
}

func TestCompleteDescribes(t *testing.T) {
	got := complete([]string{"resume", ""}, fakeIDs)
	// The agents come first, then this directory's sessions.
	if got[0].desc != "Claude Code sessions" || got[len(agents.Names())].desc != "claude, 1h, newest" {
		t.Errorf("descriptions: %q", got)
	}
	for _, c := range complete([]string{""}, fakeIDs) {
		if c.desc == "" {
			t.Errorf("command %s has no description", c.value)
		}
	}
}

// TestCommandTable holds each entry of the one command table to what help,
// parsing and completion need of it.
func TestCommandTable(t *testing.T) {
	for _, c := range commandTable() {
		if c.hidden {
			continue
		}
		help := c.helpText()
		if c.summary == "" || !strings.HasPrefix(help, "Usage: fleetcom "+c.name) {
			t.Errorf("%s: summary %q, help %q", c.name, c.summary, help)
		}
		for _, f := range c.flags {
			if !strings.Contains(help, f.name) || !strings.Contains(c.usage(), f.name) || f.help == "" {
				t.Errorf("%s: flag %s missing from its help or usage", c.name, f.name)
			}
			arg := []string{f.name}
			if f.value != "" {
				arg = append(arg, "x")
			}
			if in, err := c.parse(arg); err != nil || !in.has(f.name) {
				t.Errorf("%s: flag %s does not parse: %v", c.name, f.name, err)
			}
		}
		if !strings.Contains(usageText(), c.usage()) {
			t.Errorf("%s: not in the command list", c.name)
		}
	}
}

func TestSessionWords(t *testing.T) {
	state := t.TempDir()
	useState(t, state)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ended := now.Add(-time.Hour)
	c, g := safe.NewUUID(), safe.NewUUID()
	liveRun(t, state, "grok", c, "/work")
	recs := []catalog.Entry{
		{Record: store.Record{Tool: "claude", ID: "a", Updated: now.Add(-90 * time.Second), Resumable: true, Title: "fix\tthe\nflaky \x1b[31mtest"}},
		{Record: store.Record{Tool: "codex", ID: "b", Updated: now.Add(-2 * time.Hour), Ended: &ended}},             // empty: quit before a prompt
		{Record: store.Record{Tool: "codex", ID: "e", Updated: now.Add(-2 * time.Hour), Ended: &ended}, Gone: true}, // moved away
		{Record: store.Record{Tool: "grok", ID: c, Updated: now.Add(-3 * time.Hour)}},                               // running: may still become resumable
		{Record: store.Record{Tool: "grok", ID: g, Updated: now.Add(-4 * time.Hour)}},                               // lost: its run ended unseen
		{Record: store.Record{Tool: "claude", ID: "d", Updated: now.Add(-72 * time.Hour), Resumable: true, Title: strings.Repeat("long ", 40)}},
		{Record: store.Record{Tool: "grok", ID: "f", Updated: now.Add(-9 * 24 * time.Hour), Resumable: true, Title: "old"}, Found: true},
	}
	got := sessionWords(recs, now)
	want := []candidate{
		{"a", "claude, 1m, fix the flaky [31mtest"},
		{c, "grok, 3h, running now"},
		{"d", "claude, 3d, " + harness.CleanTitle(recs[5].Title)},
		{"f", "grok, 9d, found: old"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(candidate{})); diff != "" {
		t.Errorf("sessionWords (-want +got):\n%s", diff)
	}
	if long := []rune(got[2].desc); len(long) > 80 || long[len(long)-1] != '…' {
		t.Errorf("long title not cut: %q", got[2].desc)
	}
}

// TestCompleteCommand runs the hidden command over a real store: IDs of the
// current directory only, newest first, nothing on stderr.
func TestCompleteCommand(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	useState(t, state)
	ids := putSessions(t, filepath.Join(state, "fleetcom"), work, []session{
		{"claude", "fix the flaky test", 3 * time.Hour},
		{"codex", "", 10 * time.Minute},
	})
	putSessions(t, filepath.Join(state, "fleetcom"), t.TempDir(), []session{{"grok", "elsewhere", time.Minute}})
	// No agent's store holds them: they are offered as runs going on.
	liveRun(t, state, "claude", ids[0], work)
	liveRun(t, state, "codex", ids[1], work)
	t.Chdir(work)
	out, errs := captureOutput(t, func() {
		if code := dispatch([]string{"__complete", "--", "resume", ""}); code != 0 {
			t.Errorf("__complete: %d", code)
		}
	})
	want := ""
	for _, a := range agents.All() {
		want += a.Name + "\t" + a.Display + " sessions\n"
	}
	want += ids[1] + "\tcodex, 10m, running now\n" + ids[0] + "\tclaude, 3h, running now, fix the flaky test\n"
	if out != want || errs != "" {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr: %q", out, want, errs)
	}
}

// A directory of more conversations than completion offers: the newest
// completeMax, and an older one once its ID or name is begun.
func TestCompleteNewestOnly(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	useState(t, state)
	var sessions []session
	for i := range completeMax + 5 {
		sessions = append(sessions, session{"claude", "", time.Duration(i+1) * time.Minute})
	}
	ids := putSessions(t, filepath.Join(state, "fleetcom"), work, sessions)
	for i, id := range ids {
		p := claudeTranscriptPath(filepath.Join(state, "home", ".claude"), work, id)
		os.MkdirAll(filepath.Dir(p), 0o700)
		line, _ := json.Marshal(map[string]any{"type": "user", "sessionId": id, "cwd": work,
			"timestamp": time.Now().Add(-sessions[i].age).UTC().Format(time.RFC3339Nano),
			"message":   map[string]any{"role": "user", "content": "a title"}})
		if err := os.WriteFile(p, append(line, '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	complete := func(word string) []string {
		t.Helper()
		out, errs := captureOutput(t, func() {
			if code := dispatch([]string{"__complete", "--", "resume", "claude", word}); code != 0 {
				t.Errorf("__complete: %d", code)
			}
		})
		if errs != "" {
			t.Errorf("stderr: %q", errs)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			got = append(got, strings.Split(l, "\t")[0])
		}
		return got
	}
	got := complete("")
	if len(got) != completeMax || got[0] != ids[0] || got[completeMax-1] != ids[completeMax-1] {
		t.Errorf("offered %d, from %.8s to %.8s; want the newest %d", len(got), got[0], got[len(got)-1], completeMax)
	}
	oldest := ids[len(ids)-1]
	if got := complete(oldest[:13]); !slices.Contains(got, oldest) {
		t.Errorf("%s… offered %v, not the oldest conversation", oldest[:13], got)
	}
}

// useState points the session store at dir/fleetcom for one test, and
// everything else fleetcom reads or writes (the index's cache, the agents'
// stores under HOME) at empty places under dir: a test never reads this
// machine's conversations nor writes its cache.
func useState(t testing.TB, dir string) {
	t.Setenv("XDG_STATE_HOME", dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, a := range agents.All() {
		if a.HomeVar != "" {
			t.Setenv(a.HomeVar, "")
		}
	}
}

// captureOutput runs f with the package's stdout and stderr captured.
func captureOutput(t testing.TB, f func()) (string, string) {
	t.Helper()
	var out, errs strings.Builder
	oldOut, oldErr := stdout, stderr
	stdout, stderr = &out, &errs
	defer func() { stdout, stderr = oldOut, oldErr }()
	f()
	return out.String(), errs.String()
}

// session is a record to create: its tool, title and age.
type session struct {
	tool  string
	title string
	age   time.Duration
}

// putSessions saves sessions of cwd in the store at dir, each updated age
// ago, and returns their IDs in the order given.
func putSessions(t testing.TB, dir, cwd string, sessions []session) []string {
	t.Helper()
	var ids []string
	for _, s := range sessions {
		id := safe.NewUUID()
		when := time.Now().Add(-s.age)
		st, err := store.Open(dir, store.Config{Valid: agents.ValidID, Now: func() time.Time { return when }})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Put(store.Record{Tool: s.tool, ID: id, Cwd: cwd, Source: "capture",
			Started: when, Resumable: true, Title: s.title}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// BenchmarkComplete is `fleetcom __complete resume ”` in process, in one
// directory of ten sessions among 10,000 in 1,000 directories.
func BenchmarkComplete(b *testing.B) {
	state := b.TempDir()
	cwd := writeBenchStore(b, filepath.Join(state, "fleetcom"), filepath.Join(b.TempDir(), "work"), 1000, 10)
	useState(b, state)
	b.Chdir(cwd)
	stdout = io.Discard
	defer func() { stdout = os.Stdout }()
	for b.Loop() {
		if code := dispatch([]string{"__complete", "--", "resume", ""}); code != 0 {
			b.Fatal(code)
		}
	}
}

// writeBenchStore fills the store at dir with perDir sessions in each of
// dirs directories under work, and returns the last directory.
func writeBenchStore(t testing.TB, dir, work string, dirs, perDir int) string {
	t.Helper()
	st, err := store.Open(dir, store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	tools := agents.Names()
	var wg sync.WaitGroup
	errs := make(chan error, dirs)
	sem := make(chan struct{}, 16) // Put syncs every record: overlap the waits
	for d := range dirs {
		cwd := filepath.Join(work, fmt.Sprintf("p%04d", d))
		if err := os.MkdirAll(cwd, 0o755); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			for k := range perDir {
				id := fmt.Sprintf("%08x-%04x-4000-8000-000000000000", d, k)
				_, err := st.Put(store.Record{Tool: tools[k%len(tools)], ID: id, Cwd: cwd, Source: "capture",
					Started: time.Now(), Resumable: k%4 != 0, Title: fmt.Sprintf("task %d of directory %d", k, d)})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return filepath.Join(work, fmt.Sprintf("p%04d", dirs-1))
}

package index

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

const (
	idA = "0a000000-0000-4000-8000-000000000001"
	idB = "0b000000-0000-4000-8000-000000000002"
	idC = "0c000000-0000-4000-8000-000000000003"
)

func refresh(t *testing.T, x *Index, sc Scope) Result {
	t.Helper()
	r, err := x.Refresh(sc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func search(t *testing.T, x *Index, words ...string) []string {
	t.Helper()
	terms, err := ParseQuery(words)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := x.Search(Query{Terms: terms})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func TestSearchFindsConversationsByText(t *testing.T) {
	h := newToyHome(t)
	h.write("/src/alpha", idA, "C /src/alpha", "1700000000 P Fix the Login router", "1700000100 R moved the login page")
	h.write("/src/beta", idB, "C /src/beta", "1700000200 P write the release notes", "1700000300 R notes written for zebra")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	// The second turn of alpha comes in a later read: its words are in
	// another part of the text, and an AND of words holds across parts.
	h.write("/src/alpha", idA, "1700000400 P now the zebra crossing")
	refresh(t, x, Scope{})
	for _, c := range []struct {
		q    []string
		want []string
	}{
		{[]string{"login"}, []string{idA}},
		{[]string{"LOGIN", "ROUTER"}, []string{idA}},
		{[]string{"zebra"}, []string{idA, idB}},
		{[]string{"login", "zebra"}, []string{idA}},
		{[]string{`"release notes"`}, []string{idB}},
		{[]string{`"notes release"`}, nil},
		{[]string{"login", "release"}, nil},
		{[]string{"nothere"}, nil},
	} {
		got := search(t, x, c.q...)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("search %q: %v, want %v", c.q, got, c.want)
		}
	}
	hits, err := x.Search(Query{Terms: []string{"router"}})
	if err != nil || len(hits) != 1 {
		t.Fatalf("search router: %v, %v", hits, err)
	}
	if s := hits[0].Snippet; !strings.Contains(s, Mark+"router"+EndMark) || strings.Contains(s, "\n") {
		t.Errorf("snippet %q: want the match marked, on one line", s)
	}
	if hits[0].Title != "Fix the Login router" || hits[0].Cwd != "/src/alpha" || hits[0].Turns != 2 || hits[0].Messages != 3 {
		t.Errorf("hit: %+v", hits[0].Conv)
	}
	// Narrowed to a directory and by time.
	terms, _ := ParseQuery([]string{"zebra"})
	if hits, _ := x.Search(Query{Terms: terms, Dir: "/src/beta"}); len(hits) != 1 || hits[0].ID != idB {
		t.Errorf("search zebra in /src/beta: %v", hits)
	}
	if hits, _ := x.Search(Query{Terms: terms, Since: time.Unix(1700000350, 0)}); len(hits) != 1 || hits[0].ID != idA {
		t.Errorf("search zebra since alpha's last turn: %v", hits)
	}
}

func TestParseQuery(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
	}{
		{[]string{"a", "b"}, []string{"a", "b"}},
		{[]string{`"fix the`, `bug"`, "now"}, []string{"fix the bug", "now"}},
		{[]string{`say"hi there"`}, []string{"say", "hi there"}},
		{[]string{`"unterminated phrase`}, []string{"unterminated phrase"}},
		{[]string{"--", "!!", "x"}, []string{"x"}},
	} {
		got, err := ParseQuery(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseQuery(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := ParseQuery([]string{"  ", `""`, "--"}); err != ErrEmptyQuery {
		t.Errorf("empty query: %v", err)
	}
	// Nothing a user types is an operator of the engine's syntax.
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P NOT AND OR NEAR column:x ^start *star", "R ok")
	x := h.open("", true)
	refresh(t, x, Scope{})
	for _, q := range []string{"NOT", "OR", `"column:x"`, "^start", "*star", "NEAR(x"} {
		if _, err := x.Search(Query{Terms: []string{q}}); err != nil {
			t.Errorf("search %q: %v", q, err)
		}
	}
	if got := search(t, x, "NOT", "AND"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search NOT AND: %v", got)
	}
}

func TestAppendReadsOnlyWhatWasAdded(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P first words", "R a long reply "+strings.Repeat("filler ", 1000))
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	line := "P second words"
	h.write("/d", idA, line)
	r := refresh(t, x, Scope{})
	if r.Files != 1 || r.Bytes != int64(len(line)+1) {
		t.Errorf("refresh after one line: %+v; want one file, %d bytes", r, len(line)+1)
	}
	if r := refresh(t, x, Scope{}); r.Files != 0 {
		t.Errorf("refresh with nothing new read %d files", r.Files)
	}
	if got := search(t, x, "second"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search second: %v", got)
	}
}

func TestHalfWrittenLineKeepsWhatCameBefore(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P complete prompt")
	p := h.path("/d", idA)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("R half writ")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	if got := search(t, x, "complete"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search complete: %v", got)
	}
	if got := search(t, x, "half"); got != nil {
		t.Errorf("a line still being written was indexed: %v", got)
	}
	f.WriteString("ten reply\n")
	f.Close()
	refresh(t, x, Scope{})
	if got := search(t, x, "written"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search written, once the line is whole: %v", got)
	}
}

func TestTruncatedFileKeepsTheLastGoodVersion(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P keep this prompt", "R and this reply", "P and this one")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	// Rewritten shorter: cut short, or half written by a tool that
	// rewrites its file.
	p := h.path("/d", idA)
	if err := os.WriteFile(p+".new", []byte("C /d\nP keep this prompt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	refresh(t, x, Scope{})
	if got := search(t, x, "reply"); !slices.Equal(got, []string{idA}) {
		t.Errorf("text indexed before the file was cut short is gone: %v", got)
	}
	// A rewrite that says more replaces it.
	if err := os.WriteFile(p+".new", []byte("C /d\nP brand new start\nR yes\nP more\nR more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	refresh(t, x, Scope{})
	if got := search(t, x, "brand"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search brand: %v", got)
	}
	if got := search(t, x, "reply"); got != nil {
		t.Errorf("a longer rewrite kept the old text: %v", got)
	}
}

func TestDeletedConversationDisappears(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P unique marmot")
	h.write("/d", idB, "C /d", "P another marmot")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	if got := search(t, x, "marmot"); len(got) != 2 {
		t.Fatalf("search marmot: %v", got)
	}
	if err := os.Remove(h.path("/d", idA)); err != nil {
		t.Fatal(err)
	}
	refresh(t, x, Scope{})
	if got := search(t, x, "marmot"); !slices.Equal(got, []string{idB}) {
		t.Errorf("search marmot after a delete: %v", got)
	}
	if _, ok, _ := x.Get("toy", idA); ok {
		t.Error("the deleted conversation is still in the index")
	}
	// A whole folder gone.
	if err := os.RemoveAll(filepath.Join(h.home, "conv")); err != nil {
		t.Fatal(err)
	}
	refresh(t, x, Scope{})
	if got := search(t, x, "marmot"); got != nil {
		t.Errorf("search marmot after the folder went: %v", got)
	}
}

func TestDirListsNewestFirst(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "1700000000 P old")
	h.write("/d", idB, "C /d", "1700000500 P new", "N my name")
	h.write("/d", idC, "C /d", "S", "1700000900 P side thread")
	h.write("/e", "0d000000-0000-4000-8000-000000000004", "C /e", "P elsewhere")
	x := h.open("", true)
	refresh(t, x, Scope{})
	list, err := x.Dir("/d", "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range list {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, []string{idC, idB, idA}) {
		t.Errorf("Dir(/d): %v", ids)
	}
	if !list[0].Side || list[1].Name != "my name" || !list[2].Stored {
		t.Errorf("Dir(/d) fields: %+v", list)
	}
	if got, _ := x.Prefix("0b00"); len(got) != 1 || got[0].ID != idB {
		t.Errorf("Prefix(0b00): %v", got)
	}
	if got, _ := x.Named("MY NAME"); len(got) != 1 || got[0].ID != idB {
		t.Errorf("Named(MY NAME): %v", got)
	}
}

// The cost of a refresh follows what changed: a quick refresh looks at the
// folders that changed lately and the scope's, and leaves the others to a
// sweep.
func TestQuickRefreshAndSweep(t *testing.T) {
	h := newToyHome(t)
	now := time.Now()
	clock := func() time.Time { return now }
	dir := t.TempDir()
	x, err := Open(dir, Options{Agents: []harness.Agent{toyAgent}, Homes: func(harness.Agent) []string { return []string{h.home} },
		Text: true, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	// More files than a small index has, so that refreshes are quick ones.
	for i := 0; i < smallIndex+10; i++ {
		h.write("/bulk", uuidN(i), "C /bulk", "P bulk")
	}
	h.write("/cold", idA, "C /cold", "P cold")
	old := now.Add(-3 * warmFor)
	for _, d := range []string{"/bulk", "/cold"} {
		p := filepath.Dir(h.path(d, idA))
		entries, _ := os.ReadDir(p)
		for _, e := range entries {
			os.Chtimes(filepath.Join(p, e.Name()), old, old)
		}
		os.Chtimes(p, old, old)
	}
	if r := refresh(t, x, Scope{}); !r.Swept {
		t.Fatalf("first refresh: %+v, want a sweep", r)
	}
	if x.SweepDue() {
		t.Error("a sweep is due right after one")
	}
	// A new conversation in a cold folder: a quick refresh about another
	// directory does not see it, one about that directory does.
	h.write("/cold", idB, "C /cold", "P newcomer")
	os.Chtimes(filepath.Dir(h.path("/cold", idB)), now, now)
	os.Chtimes(h.path("/cold", idB), old, old)
	if r := refresh(t, x, Scope{Dirs: []string{"/elsewhere"}}); r.Swept || r.Files != 0 {
		t.Errorf("quick refresh elsewhere: %+v", r)
	}
	if r := refresh(t, x, Scope{Dirs: []string{"/cold"}}); r.Files != 1 {
		t.Errorf("quick refresh of /cold: %+v, want the new file read", r)
	}
	if got := search(t, x, "newcomer"); !slices.Equal(got, []string{idB}) {
		t.Errorf("search newcomer: %v", got)
	}
	// An old file written to without changing its folder is seen once it
	// is hot (written within the hour) or running, or at the next sweep.
	h.write("/cold", idA, "P appended later")
	os.Chtimes(h.path("/cold", idA), old, old)
	if r := refresh(t, x, Scope{}); r.Files != 0 {
		t.Errorf("quick refresh read %d files", r.Files)
	}
	if r := refresh(t, x, Scope{Hot: []Key{{"toy", idA}}}); r.Files != 1 {
		t.Errorf("refresh with the conversation running: %+v", r)
	}
	// Or when a command is about its directory: a conversation continued
	// there outside fleetcom, its file written with an old time.
	h.write("/cold", idA, "P continued by hand")
	os.Chtimes(h.path("/cold", idA), old, old)
	if r := refresh(t, x, Scope{Dirs: []string{"/elsewhere"}}); r.Files != 0 {
		t.Errorf("quick refresh elsewhere read %d files", r.Files)
	}
	if r := refresh(t, x, Scope{Dirs: []string{"/cold"}}); r.Files != 1 {
		t.Errorf("quick refresh of /cold after an append: %+v, want the file read", r)
	}
	now = now.Add(SweepEvery + time.Second)
	if !x.SweepDue() {
		t.Error("no sweep due after SweepEvery")
	}
	if r := refresh(t, x, Scope{Full: true}); !r.Swept {
		t.Errorf("full refresh: %+v", r)
	}
}

func uuidN(i int) string {
	return strings.Replace("00000000-0000-4000-8000-000000000000", "00000000", padHex(i), 1)
}

func padHex(i int) string {
	const hex = "0123456789abcdef"
	b := []byte("00000000")
	for j := 7; j >= 0 && i > 0; j-- {
		b[j] = hex[i%16]
		i /= 16
	}
	return string(b)
}

func TestTwoRefreshesAtOnce(t *testing.T) {
	h := newToyHome(t)
	for i := 0; i < 300; i++ {
		h.write("/d", uuidN(i), "C /d", "P racing words "+uuidN(i), "R reply")
	}
	dir := t.TempDir()
	a, b := h.open(dir, true), h.open(dir, true)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, x := range []*Index{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = x.Refresh(Scope{Full: true})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range []*Index{a, b} {
		if got := search(t, x, "racing"); len(got) != 300 {
			t.Errorf("after two refreshes at once, %d of 300 found", len(got))
		}
		if err := x.db.c.Exec(`PRAGMA integrity_check`); err != nil {
			t.Error(err)
		}
		if err := x.db.c.Exec(`INSERT INTO chunk(chunk, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Errorf("full-text integrity: %v", err)
		}
	}
}

func TestIndexIsPrivate(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P secret words")
	dir := filepath.Join(t.TempDir(), "index")
	x := h.open(dir, true)
	refresh(t, x, Scope{})
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("index directory: %v, %v; want mode 0700", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) == 0 {
		t.Fatal("no files in the index directory")
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v, %v; want no access for group or others", e.Name(), fi.Mode(), err)
		}
	}
	x.Close()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "not private") {
		t.Errorf("Open of a directory others can write: %v", err)
	}
}

func TestDamagedIndexIsRebuilt(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P survivor words")
	dir := t.TempDir()
	x := h.open(dir, true)
	refresh(t, x, Scope{})
	x.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(filepath.Join(dir, File+suffix))
	}
	if err := os.WriteFile(filepath.Join(dir, File), []byte(strings.Repeat("not a database ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	y, warnings := h.openWarned(dir)
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "rebuilding") {
		t.Errorf("warnings: %q; want one saying it is rebuilt", *warnings)
	}
	refresh(t, y, Scope{})
	if got := search(t, y, "survivor"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search after the rebuild: %v", got)
	}
}

func TestTextOff(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P private words")
	x := h.open("", false)
	refresh(t, x, Scope{})
	if got := search(t, x, "private"); got != nil {
		t.Errorf("text indexed with text off: %v", got)
	}
	c, ok, err := x.Get("toy", idA)
	if err != nil || !ok || c.Title != "private words" {
		t.Errorf("metadata with text off: %+v, %v, %v", c, ok, err)
	}
}

// A full refresh writes with the large page cache and leaves the
// connection with the small one that reading commands keep.
func TestRefreshPutsTheCacheBack(t *testing.T) {
	h := newToyHome(t)
	x, err := Open(t.TempDir(), Options{Agents: []harness.Agent{toyAgent}, Homes: func(harness.Agent) []string { return []string{h.home} }, Text: true})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	h.write("/a", idA, "C /a", "P words")
	if r := refresh(t, x, Scope{Full: true}); r.Files != 1 {
		t.Fatalf("refresh read %d files, want 1", r.Files)
	}
	want, _ := strconv.ParseInt(strings.TrimPrefix(readCache, "PRAGMA cache_size="), 10, 64)
	if got, err := x.db.int64Of(`PRAGMA cache_size`); err != nil || got != want {
		t.Errorf("cache_size after a refresh = %d (%v), want %d", got, err, want)
	}
}

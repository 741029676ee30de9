package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// searchWhole is Search as it reads every matching conversation: all of
// them in order of activity, the newest rankRows matching parts ranked,
// the ranked ones first by rank, then the rest newest first.
func searchWhole(t *testing.T, x *Index, q Query) []Hit {
	t.Helper()
	where, args, ors := q.where()
	scoring := strings.Join(ors, " OR ")
	type cand struct {
		hit  Hit
		row  int64
		best int64
		at   int
	}
	var cands []*cand
	byRow := map[int64]*cand{}
	var rs rowStrings
	err := x.db.query(`SELECT rowid, `+convCols+` FROM conv WHERE `+where+` ORDER BY `+activity, args, func(s *sqlite3.Stmt) error {
		c := &cand{hit: Hit{Conv: scanConvAt(s, 1, &rs)}, row: s.ColumnInt64(0), at: len(cands)}
		byRow[c.row] = c
		cands = append(cands, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = x.db.query(`SELECT rowid, bm25(chunk) FROM chunk WHERE chunk MATCH ? ORDER BY rowid DESC LIMIT ?`, []any{scoring, rankRows}, func(s *sqlite3.Stmt) error {
		if c := byRow[s.ColumnInt64(0)>>chunkBits]; c != nil {
			if v := s.ColumnFloat(1); c.best == 0 || v < c.hit.Score {
				c.hit.Score, c.best = v, s.ColumnInt64(0)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(cands, func(a, b *cand) int {
		switch {
		case (a.best != 0) != (b.best != 0):
			if a.best != 0 {
				return -1
			}
			return 1
		case a.hit.Score != b.hit.Score:
			if a.hit.Score < b.hit.Score {
				return -1
			}
			return 1
		}
		return a.at - b.at
	})
	if q.Limit > 0 && len(cands) > q.Limit {
		cands = cands[:q.Limit]
	}
	var out []Hit
	for _, c := range cands {
		body, err := x.bestText(c.best, c.row, scoring)
		if err != nil {
			t.Fatal(err)
		}
		c.hit.Snippet = snippet(body, q.Terms, q.Prefix)
		out = append(out, c.hit)
	}
	return out
}

// Search reads only the ranked conversations when they fill the limit, and
// only the hits whole; what it finds, in what order, with what rank and
// snippet, is what reading every matching conversation finds. The history
// has more matching parts than one search ranks, side threads, forgotten
// conversations, three directories, and words found almost everywhere.
func TestSearchIsTheWholeReading(t *testing.T) {
	h := newToyHome(t)
	r := rand.New(rand.NewPCG(5, 6))
	common := []string{"the", "build", "fix", "test", "router", "login", "page", "notes"}
	rare := []string{"zebra", "marmot", "quokka"}
	sentence := func() string {
		w := []string{"the"} // in every part: more than one search ranks
		for range 3 + r.IntN(8) {
			if r.IntN(40) == 0 {
				w = append(w, rare[r.IntN(len(rare))])
			} else {
				w = append(w, common[r.IntN(len(common))])
			}
		}
		return strings.Join(w, " ")
	}
	dirs := []string{"/src/a", "/src/b", "/src/c"}
	const convs = 300
	ids := make([]string, convs)
	dirOf := make([]string, convs)
	base := int64(1700000000)
	for i := range convs {
		ids[i] = fmt.Sprintf("%08x-0000-4000-8000-%012x", i+1, i+1)
		dirOf[i] = dirs[r.IntN(len(dirs))]
		lines := []string{"C " + dirOf[i]}
		if r.IntN(10) == 0 {
			lines = append(lines, "S")
		}
		h.write(dirOf[i], ids[i], lines...)
	}
	x := h.open(t.TempDir(), true)
	// Each read of a conversation's new lines is a part of its text: eight
	// rounds make 2,400 parts, more than rankRows.
	for round := range 8 {
		for i := range convs {
			at := base + int64(round*1000+r.IntN(1000))
			h.write(dirOf[i], ids[i], fmt.Sprintf("%d P %s", at, sentence()), fmt.Sprintf("%d R %s", at+1, sentence()))
			// Two words of their own, each in a part of its own: "alpha" in
			// every third conversation, "omega" in every fifth, so that
			// many hold one but not both.
			if round == 1 && i%3 == 0 || round == 5 && i%5 == 0 {
				h.write(dirOf[i], ids[i], map[int]string{1: "P alpha", 5: "P omega"}[round])
			}
		}
		refresh(t, x, Scope{Full: true})
	}
	var parts int64
	if _, err := x.db.one(`SELECT count(*) FROM chunk`, nil, func(s *sqlite3.Stmt) { parts = s.ColumnInt64(0) }); err != nil || parts <= rankRows {
		t.Fatalf("%d parts of text (%v): the test needs more than %d", parts, err, rankRows)
	}
	if err := x.db.exec(`UPDATE conv SET forgotten = 1 WHERE rowid % 9 = 0`); err != nil {
		t.Fatal(err)
	}
	queries := []Query{
		{Terms: []string{"the"}, Limit: 20},
		{Terms: []string{"the"}, Limit: 1},
		{Terms: []string{"the"}},
		{Terms: []string{"the", "router"}, Limit: 20},
		{Terms: []string{"fix the"}, Limit: 10},
		{Terms: []string{"zebra"}, Limit: 20},
		{Terms: []string{"zebra", "login"}, Limit: 5},
		{Terms: []string{"marmot"}},
		{Terms: []string{"rout"}, Prefix: true, Limit: 20},
		{Terms: []string{"alpha", "omega"}, Limit: 5},
		{Terms: []string{"omega", "alpha"}, Limit: 10},
		{Terms: []string{"notes"}, Limit: 20, Dir: "/src/b"},
		// More than the directory's ranked conversations: the rest follow.
		{Terms: []string{"notes"}, Limit: 200, Dir: "/src/b"},
		{Terms: []string{"page"}, Limit: 20, Since: time.Unix(base+7500, 0)},
		// The ranked ones active since then do not fill the limit: the
		// others active since then follow them.
		{Terms: []string{"the"}, Limit: 150, Since: time.Unix(base+7500, 0)},
		{Terms: []string{"build"}, Limit: 2000},
		{Terms: []string{"nothing"}, Limit: 20},
	}
	for _, q := range queries {
		got, err := x.Search(q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		want := searchWhole(t, x, q)
		if len(got) != len(want) {
			t.Errorf("%+v: %d hits, want %d", q, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i].ID != want[i].ID || got[i].Score != want[i].Score || got[i].Snippet != want[i].Snippet || got[i].Conv != want[i].Conv {
				t.Errorf("%+v: hit %d is %s (%v, %q), want %s (%v, %q)", q, i, got[i].ID, got[i].Score, got[i].Snippet, want[i].ID, want[i].Score, want[i].Snippet)
				break
			}
		}
	}
}

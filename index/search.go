package index

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/ncruces/go-sqlite3"
)

// Search looks for conversations by what was said in them: every term
// (a word, or a phrase in quotes) must occur somewhere in a conversation's
// prompts and replies, in any case. The full-text engine ranks the matching
// text (BM25); a conversation ranks by its best matching part, then by how
// recently it was active.

// Snippet markers: a snippet's matched words are between Mark and EndMark.
const (
	Mark    = "\x02"
	EndMark = "\x03"
)

// Query is what a search asks.
type Query struct {
	// Terms are ANDed: each a word or a phrase, as ParseQuery makes them.
	Terms []string
	// Prefix takes the last term as the start of a word (search as you
	// type).
	Prefix bool
	// Tool, Dir (physical) and Since narrow the search; zero for any.
	Tool  string
	Dir   string
	Since time.Time
	// Limit is the most hits returned; 0 for all.
	Limit int
}

// Hit is one conversation a search found.
type Hit struct {
	Conv
	// Snippet is one line of the best matching text, with the matched
	// words between Mark and EndMark.
	Snippet string
	// Score is the engine's rank of the best match (lower is better); 0
	// when the conversation was not ranked.
	Score float64
}

// ErrEmptyQuery is returned for a query with nothing to look for.
var ErrEmptyQuery = errors.New("nothing to search for: give a word or a \"phrase\"")

// ParseQuery splits the words of a command line into terms: a run of text
// between double quotes is one phrase, anything else is split at spaces.
// Terms with neither a letter nor a digit are dropped: they match nothing.
func ParseQuery(words []string) ([]string, error) {
	s := strings.Join(words, " ")
	var terms []string
	add := func(t string) {
		t = strings.Join(strings.Fields(t), " ")
		if strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			terms = append(terms, t)
		}
	}
	for s != "" {
		if rest, ok := strings.CutPrefix(s, `"`); ok {
			phrase, after, _ := strings.Cut(rest, `"`)
			add(phrase)
			s = after
			continue
		}
		i := strings.IndexAny(s, " \t\n\"")
		if i < 0 {
			add(s)
			break
		}
		add(s[:i])
		s = s[i:]
		if s[0] != '"' {
			s = s[1:]
		}
	}
	if len(terms) == 0 {
		return nil, ErrEmptyQuery
	}
	return terms, nil
}

// match is a term in the engine's query syntax: a phrase of its tokens,
// quoted so that nothing in it is an operator.
func match(term string, prefix bool) string {
	m := `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
	if prefix {
		m += " *"
	}
	return m
}

// Search runs a query. Conversations match when each term is somewhere in
// their text; the engine's BM25 rank of each matching part of the text is
// read in one pass, from the newest conversations back, at most
// rankRows parts (a word found everywhere must not cost a rank of every
// part); a conversation ranks by its best part, and one with no part in
// that pass follows the ranked ones, newest first.
//
// A word said in every conversation must not cost a read of every one:
// when the ranked conversations that match fill the limit, no other can
// be a hit, and only they are read; and only the hits kept are read whole.
func (x *Index) Search(q Query) ([]Hit, error) {
	if len(q.Terms) == 0 {
		return nil, ErrEmptyQuery
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	where, args, ors := q.where()
	scoring := strings.Join(ors, " OR ")
	type part struct {
		chunk int64   // the rowid of a conversation's best part of text
		score float64 // its rank (lower is better)
	}
	best := map[int64]part{} // by conv rowid
	err := x.db.query(`SELECT rowid, bm25(chunk) FROM chunk WHERE chunk MATCH ? ORDER BY rowid DESC LIMIT ?`, []any{scoring, rankRows}, func(s *sqlite3.Stmt) error {
		row, v := s.ColumnInt64(0), s.ColumnFloat(1)
		if p, ok := best[row>>chunkBits]; !ok || v < p.score {
			best[row>>chunkBits] = part{row, v}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	type cand struct {
		row   int64 // its conv rowid
		part        // its best part; chunk 0 when unranked
		order int   // its place by activity
	}
	var cands []cand
	collect := func(where string, args []any) error {
		cands = cands[:0]
		return x.db.query(`SELECT rowid FROM conv WHERE `+where+` ORDER BY `+activity, args, func(s *sqlite3.Stmt) error {
			row := s.ColumnInt64(0)
			cands = append(cands, cand{row: row, part: best[row], order: len(cands)})
			return nil
		})
	}
	full := true
	if q.Limit > 0 && len(best) >= q.Limit {
		ids := []byte{'['}
		for row := range best {
			if len(ids) > 1 {
				ids = append(ids, ',')
			}
			ids = strconv.AppendInt(ids, row, 10)
		}
		ids = append(ids, ']')
		// With one term, every ranked conversation holds it: looking for
		// it again would read its every occurrence.
		cond, condArgs := where, args
		if len(q.Terms) == 1 {
			cond, condArgs = q.others()
		}
		if err := collect(`rowid IN (SELECT value FROM json_each(?)) AND `+cond, append([]any{string(ids)}, condArgs...)); err != nil {
			return nil, err
		}
		full = len(cands) < q.Limit
	}
	if full {
		if err := collect(where, args); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.chunk != 0 && b.chunk == 0:
			return -1
		case a.chunk == 0 && b.chunk != 0:
			return 1
		case a.score < b.score:
			return -1
		case a.score > b.score:
			return 1
		}
		return a.order - b.order
	})
	if q.Limit > 0 && len(cands) > q.Limit {
		cands = cands[:q.Limit]
	}
	out := make([]Hit, 0, len(cands))
	var rs rowStrings
	for _, c := range cands {
		hit := Hit{Score: c.score}
		found, err := x.db.one(`SELECT `+convCols+` FROM conv WHERE rowid = ?`, []any{c.row}, func(s *sqlite3.Stmt) { hit.Conv = scanConvAt(s, 0, &rs) })
		if err != nil {
			return nil, err
		}
		if !found {
			continue // gone since: another process's refresh
		}
		body, err := x.bestText(c.chunk, c.row, scoring)
		if err != nil {
			return nil, err
		}
		hit.Snippet = snippet(body, q.Terms, q.Prefix)
		out = append(out, hit)
	}
	return out, nil
}

// where is the condition on conv of the conversations q finds, its
// arguments, and the FTS5 query of each term.
func (q Query) where() (string, []any, []string) {
	var sets, ors []string
	var args []any
	for i, t := range q.Terms {
		m := match(t, q.Prefix && i == len(q.Terms)-1)
		sets = append(sets, fmt.Sprintf(`SELECT rowid >> %d FROM chunk WHERE chunk MATCH ?`, chunkBits))
		args = append(args, m)
		ors = append(ors, m)
	}
	rest, restArgs := q.others()
	return `rowid IN (` + strings.Join(sets, " INTERSECT ") + `) AND ` + rest, append(args, restArgs...), ors
}

// others is the condition q sets on conv besides the text, and its
// arguments.
func (q Query) others() (string, []any) {
	where := `NOT forgotten AND NOT side`
	var args []any
	if q.Tool != "" {
		where += ` AND tool = ?`
		args = append(args, q.Tool)
	}
	if q.Dir != "" {
		where += ` AND cwd = ?`
		args = append(args, q.Dir)
	}
	if !q.Since.IsZero() {
		where += ` AND (CASE WHEN stored AND active > 0 THEN active ELSE ractive END) >= ?`
		args = append(args, q.Since.UnixMilli())
	}
	return where, args
}

// Holding returns the conversations Search would find, as "tool:id", in
// no order, unranked and without snippets: what a picker needs to know of
// the text as the user types. Limit bounds them; 0 for all.
func (x *Index) Holding(q Query) ([]string, error) {
	if len(q.Terms) == 0 {
		return nil, ErrEmptyQuery
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	where, args, _ := q.where()
	if q.Limit > 0 {
		where += ` LIMIT ?`
		args = append(args, q.Limit)
	}
	var out []string
	err := x.db.query(`SELECT tool, id FROM conv WHERE `+where, args, func(s *sqlite3.Stmt) error {
		out = append(out, s.ColumnText(0)+":"+s.ColumnText(1))
		return nil
	})
	return out, err
}

// rankRows is how many matching parts of text one search ranks.
const rankRows = 2000

// bestText is the text of the part a hit ranked by (best), or, for a hit
// that was not ranked, of its newest matching part.
func (x *Index) bestText(best, conv int64, scoring string) (string, error) {
	var body string
	if best != 0 {
		_, err := x.db.one(`SELECT body FROM chunk WHERE rowid = ?`, []any{best}, func(s *sqlite3.Stmt) { body = s.ColumnText(0) })
		return body, err
	}
	_, err := x.db.one(`SELECT body FROM chunk WHERE chunk MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid DESC LIMIT 1`,
		[]any{scoring, conv << chunkBits, (conv + 1) << chunkBits}, func(s *sqlite3.Stmt) { body = s.ColumnText(0) })
	return body, err
}

// oneLine folds a snippet onto one line: every run of white space and
// control characters (but the markers) becomes one space.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == rune(Mark[0]) || r == rune(EndMark[0]) {
			b.WriteRune(r)
			space = false
			continue
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		b.WriteRune(r)
		space = false
	}
	return strings.TrimSpace(b.String())
}

// scanConvAt reads the columns of convCols starting at column at.
func scanConvAt(s *sqlite3.Stmt, at int, rs *rowStrings) Conv {
	col := func(i int) int { return at + i }
	return Conv{
		Tool: rs.text(s, col(0), 0), ID: s.ColumnText(col(1)), Cwd: rs.text(s, col(2), 1), StoreCwd: rs.text(s, col(3), 2),
		Home: rs.text(s, col(4), 3), Title: s.ColumnText(col(5)), Summary: s.ColumnText(col(6)), Name: s.ColumnText(col(7)),
		Started: ms(s.ColumnInt64(col(8))), Active: ms(s.ColumnInt64(col(9))), Turns: s.ColumnInt(col(10)),
		Messages: s.ColumnInt(col(11)), Side: s.ColumnBool(col(12)), Stored: s.ColumnBool(col(13)),
		Forgotten: s.ColumnBool(col(14)), rec: s.ColumnText(col(15)), recActive: ms(s.ColumnInt64(col(16))),
	}
}

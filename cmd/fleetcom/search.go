package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/index"
)

var searchFlags = []flag{
	{name: "--tool", value: "TOOL", help: "only conversations of TOOL"},
	{name: "-C", value: "DIR", dir: true, help: "only conversations of DIR"},
	{name: "--since", value: "TIME", help: "only conversations active since TIME: a time (2026-12-01, RFC 3339) or a duration back from now (90m, 12h, 3d, 2w)"},
	{name: "--limit", value: "N", help: "show at most N hits (default 20; 0 for all)"},
	{name: "--json", help: "print the hits as a JSON array"},
	{name: "-i", help: "choose among the hits in a picker, then print or run the line as resume does"},
	{name: "--exec", help: "resume the best hit (with -i: the one chosen), as resume --exec does"},
	{name: "--force", help: "with -i or --exec: resume it even when it is running now"},
	{name: "--switch", help: "with -i or --exec: when it is running now in tmux, go to its pane"},
}

const searchHelp = `Find conversations by what was said in them: every conversation of every
tool, in every directory, recorded or not (the ones the tools' own pickers
hide too), whose prompts and replies hold every word of QUERY, in any case.
"A phrase in quotes" must occur as it is. The best matches come first (the
full-text engine's ranking, then the most recent), each with its tool, a
short ID, its age, its directory, its title and one line of the text that
matched (the words in colour on a terminal, unless NO_COLOR is set).

-i opens the hits in the picker; --exec resumes the best hit. Both go the
way resume goes: the conversation is checked to still be in its tool's
store, one running now is not started a second time, and remembered
options are replayed.

The index behind it is kept up to date by every command (see 'fleetcom
index'); [index] text = false in the config keeps what was said out of it.

Exit status: 0 with a hit, 1 with none.

  fleetcom search login race
  fleetcom search '"flaky test"' --tool claude --since 2w
`

// defaultLimit is how many hits search shows unless told.
const defaultLimit = 20

func cmdSearch(in input) error {
	if len(in.args) == 0 {
		return usageError{msg: "search needs a query", hint: `for example: fleetcom search login "flaky test"`}
	}
	terms, err := index.ParseQuery(in.args)
	if err != nil {
		return usagef("%v", err)
	}
	q := index.Query{Terms: terms, Limit: defaultLimit}
	if t := in.get("--tool"); t != "" {
		if _, ok := agents.Named(t); !ok {
			return usagef("unknown tool %q: one of %s", t, agentList("or"))
		}
		q.Tool = t
	}
	if in.has("--limit") {
		n, err := strconv.Atoi(in.get("--limit"))
		if err != nil || n < 0 {
			return usagef("--limit takes a number of hits, 0 for all")
		}
		q.Limit = n
	}
	if in.has("--since") {
		if q.Since, err = parseSince(in.get("--since"), time.Now()); err != nil {
			return err
		}
	}
	st, err := openStore()
	if err != nil {
		return err
	}
	cat := newCatalog(st)
	scope := ""
	if in.has("-C") {
		if q.Dir, err = targetDir(in.get("-C")); err != nil {
			return err
		}
		scope = q.Dir
	}
	x, err := cat.Index(scope)
	if err != nil {
		return err
	}
	found, err := x.Search(q)
	if err != nil {
		return err
	}
	hits := searchHits(cat, found)
	if len(hits) == 0 {
		return notFoundError{msg: "no conversation holds " + strings.Join(quoteTerms(terms), " and "),
			hint: "fewer words find more; 'fleetcom index --status' says what the index holds"}
	}
	switch {
	case in.has("-i"):
		return pickHit(cat, hits, in)
	case in.has("--exec"):
		return resumeHit(cat, hits[0], in)
	case in.has("--json"):
		return writeJSON(searchJSON(cat, hits))
	}
	printHits(hits, time.Now())
	return nil
}

// hit is one search result as the commands show it: the catalog's entry of
// the conversation, and the text that matched.
type hit struct {
	catalog.Entry
	snippet string
}

// searchHits turns the index's hits into entries, leaving out what the
// catalog would not offer (an empty conversation, an ID its agent's
// grammar refuses).
func searchHits(cat *catalog.Catalog, found []index.Hit) []hit {
	var out []hit
	for _, h := range found {
		e, ok := cat.Entry(h.Conv)
		if !ok || !e.Resumable {
			continue
		}
		out = append(out, hit{Entry: e, snippet: h.Snippet})
	}
	return out
}

// quoteTerms shows the terms of a query as typed.
func quoteTerms(terms []string) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = strconv.Quote(t)
	}
	return out
}

// printHits prints hits for people: a line of tool, short ID, age,
// directory and title, and under it the matching text, its matched words
// in colour on a terminal.
func printHits(hits []hit, now time.Time) {
	colour := colourOn(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	width, _ := terminalWidth()
	for _, h := range hits {
		id := h.ID[:min(8, len(h.ID))]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.Tool, paint(colour, "\x1b[1m", id), age(now.Sub(h.Activity())),
			printable(tildePath(h.Cwd)), printable(h.Shown()))
		tw.Flush()
		fmt.Fprintf(stdout, "    %s\n", markSnippet(h.snippet, colour, width))
	}
}

// markSnippet shows a snippet: its matched words in colour, or plain, cut
// to the terminal's width when there is one.
func markSnippet(s string, colour bool, width int) string {
	s = printable(s) // the markers are control characters: escaped, then put back
	open, end := printable(index.Mark), printable(index.EndMark)
	if width > 8 {
		s = cutVisible(s, width-5, open, end)
	}
	if colour {
		s = strings.ReplaceAll(s, open, "\x1b[1;33m")
		return strings.ReplaceAll(s, end, "\x1b[0m")
	}
	s = strings.ReplaceAll(s, open, "")
	return strings.ReplaceAll(s, end, "")
}

// cutVisible cuts s to n visible characters, not counting the markers.
func cutVisible(s string, n int, markers ...string) string {
	visible := 0
	for i := 0; i < len(s); {
		skipped := false
		for _, m := range markers {
			if strings.HasPrefix(s[i:], m) {
				i += len(m)
				skipped = true
			}
		}
		if skipped {
			continue
		}
		if visible == n {
			return s[:i] + "…"
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		visible++
	}
	return s
}

// searchJSON is what search --json prints: each hit's record, as list
// --json gives it, with the matching text and its last activity.
func searchJSON(cat *catalog.Catalog, hits []hit) []any {
	type row struct {
		listed
		Snippet string `json:"snippet"`
		Active  string `json:"active"`
	}
	out := make([]any, 0, len(hits))
	for _, h := range hits {
		line, _ := cat.Line(h.Entry)
		snippet := strings.NewReplacer(index.Mark, "", index.EndMark, "").Replace(h.snippet)
		out = append(out, row{listed: listed{Record: h.Record, Resume: line, Discovered: h.Found, Name: h.Name},
			Snippet: snippet, Active: h.Activity().UTC().Format(time.RFC3339)})
	}
	return out
}

// resumeHit resumes a hit the way resume does.
func resumeHit(cat *catalog.Catalog, h hit, in input) error {
	p, err := cat.Resolve(catalog.Query{Tool: h.Tool, Ref: h.ID, Dir: h.Cwd})
	if err != nil {
		return err
	}
	return finishPlan(cat, p, in)
}

// pickHit opens the hits in the picker, each titled with its matching
// text, and resumes the one chosen as pick does.
func pickHit(cat *catalog.Catalog, hits []hit, in input) error {
	entries := make([]catalog.Entry, len(hits))
	titles := make([]string, len(hits))
	for i, h := range hits {
		entries[i] = h.Entry
		titles[i] = strings.NewReplacer(index.Mark, "", index.EndMark, "").Replace(h.snippet)
	}
	return pickAmong(cat, entries, titles, "", in)
}

package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// The table for people: a header, IDs cut to unique prefixes, ages from the
// last activity, states marked, lines cut to the terminal's width.
func TestPrintTable(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	nineDays := now.Add(-9 * 24 * time.Hour)
	tools := agents.Names() // any three agents
	entries := []catalog.Entry{
		{Record: store.Record{Tool: tools[0], ID: "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/w", Updated: now.Add(-time.Minute), Resumable: true, Title: "fix the build"}},
		{Record: store.Record{Tool: tools[1], ID: "0f8b2c3e-1111-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/w", Updated: now, Ended: &nineDays, Source: "adopted"}, Gone: true},
		{Record: store.Record{Tool: tools[2], ID: "77777777-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/w", Updated: now, Resumable: true, Title: strings.Repeat("a long title ", 20)}, Found: true},
	}
	var b strings.Builder
	printTable(&b, tableRows(entries, false), false, 60, now)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "TOOL") || !strings.Contains(lines[0], "TITLE") {
		t.Fatalf("table:\n%s", b.String())
	}
	for _, want := range []string{"0f8b2c3e-4 ", "1m", "fix the build"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("row 1 lacks %q: %q", want, lines[1])
		}
	}
	if !strings.Contains(lines[2], "0f8b2c3e-1 ") || !strings.Contains(lines[2], "9d") || !strings.Contains(lines[2], "(gone)") {
		t.Errorf("row 2: %q", lines[2])
	}
	if !strings.Contains(lines[3], "77777777 ") || !strings.Contains(lines[3], "(found)") {
		t.Errorf("row 3: %q", lines[3])
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 60 {
			t.Errorf("a line of %d characters in a 60-column terminal: %q", n, l)
		}
	}
	if !strings.HasSuffix(lines[3], "…") {
		t.Errorf("a long title was not cut: %q", lines[3])
	}
}

// With --all the directory column shows a path under the home as ~/…, as
// the pickers do, and a name stands in for the title.
func TestPrintTableAll(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tools := agents.Names() // any three agents
	entries := []catalog.Entry{
		{Record: store.Record{Tool: tools[0], ID: "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/home/u/src/app", Updated: now, Resumable: true, Title: "first prompt"}, Name: "login fix"},
		{Record: store.Record{Tool: tools[1], ID: "1f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/home/user2/x", Updated: now, Resumable: true, Title: "other"}},
		{Record: store.Record{Tool: tools[2], ID: "2f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/home/u", Updated: now, Resumable: true}},
	}
	var b strings.Builder
	printTable(&b, tableRows(entries, true), true, 120, now)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "DIRECTORY") {
		t.Fatalf("table:\n%s", b.String())
	}
	for i, want := range [][]string{{"~/src/app", "login", "fix"}, {"/home/user2/x", "other"}, {"~"}} {
		if f := strings.Fields(lines[1+i]); !slices.Equal(f[3:], want) {
			t.Errorf("row %d: directory and title %q, want %q", 1+i, f[3:], want)
		}
	}
	if strings.Contains(lines[1], "first prompt") {
		t.Errorf("the title shows beside the name: %q", lines[1])
	}
}

// tableRows is what list keeps of entries for its table.
func tableRows(entries []catalog.Entry, withDir bool) []tableRow {
	var rows []tableRow
	for _, e := range entries {
		rows = append(rows, newTableRow(e, stateIn(map[string]bool{}, e), withDir))
	}
	return rows
}

// The table's columns line up as text/tabwriter lines them up, with cells
// of every width, wide characters and titles cut or not.
func TestPrintTableAligns(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"fix", "the", "büild", "日本語", "a", "", "long-word-here", "~/src/app", "/x", "é"}
	text := func(n int) string {
		var w []string
		for range r.IntN(n) {
			w = append(w, words[r.IntN(len(words))])
		}
		return strings.Join(w, " ")
	}
	tools := agents.Names()
	for round := range 300 {
		withDir := round%2 == 0
		width := 10 + r.IntN(100)
		var rows []tableRow
		for range r.IntN(8) {
			rows = append(rows, tableRow{
				tool:     tools[r.IntN(len(tools))],
				id:       fmt.Sprintf("%0*x", 8+r.IntN(4), r.Uint32()),
				dir:      text(4),
				title:    text(12),
				activity: now.Add(-time.Duration(r.Int64N(int64(400 * 24 * time.Hour)))),
			})
		}
		if !withDir {
			for i := range rows {
				rows[i].dir = ""
			}
		}
		var got strings.Builder
		printTable(&got, rows, withDir, width, now)
		// What text/tabwriter makes of the same cells.
		var b strings.Builder
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		head := "TOOL\tID\tAGE\t"
		if withDir {
			head += "DIRECTORY\t"
		}
		fmt.Fprintln(w, head+"TITLE")
		ids := make([]string, len(rows))
		for i, row := range rows {
			ids[i] = row.id
		}
		short := uniquePrefixes(ids, 8)
		for i, row := range rows {
			cells := []string{row.tool, short[i], age(now.Sub(row.activity))}
			if withDir {
				cells = append(cells, row.dir)
			}
			fmt.Fprintln(w, strings.Join(append(cells, row.title), "\t"))
		}
		w.Flush()
		// Each line cut to the width by characters, with an ellipsis.
		var want strings.Builder
		for _, line := range strings.SplitAfter(b.String(), "\n") {
			body := strings.TrimSuffix(line, "\n")
			if r := []rune(body); len(r) > width {
				line = string(r[:width-1]) + "…" + line[len(body):]
			}
			want.WriteString(line)
		}
		if got.String() != want.String() {
			t.Fatalf("width %d:\n%s\nwant:\n%s", width, got.String(), want.String())
		}
	}
}

// uniquePrefixes, which looks only at sorted neighbours, cuts every ID as
// comparing it with every other one does: IDs that share long prefixes,
// equal IDs (the same ID under two tools), and IDs that are prefixes of
// others.
func TestUniquePrefixes(t *testing.T) {
	slow := func(ids []string, least int) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			n := least
			for ; n < len(id); n++ {
				unique := true
				for _, other := range ids {
					if other != id && strings.HasPrefix(other, id[:n]) {
						unique = false
						break
					}
				}
				if unique {
					break
				}
			}
			out[i] = id[:min(n, len(id))]
		}
		return out
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 500; round++ {
		ids := make([]string, r.IntN(12))
		for i := range ids {
			// Few letters and short IDs: long shared prefixes are common.
			var b strings.Builder
			for n := 4 + r.IntN(10); n > 0; n-- {
				b.WriteByte("ab"[r.IntN(2)])
			}
			ids[i] = b.String()
			if i > 0 && r.IntN(4) == 0 {
				ids[i] = ids[r.IntN(i)] // the same ID again
			}
			if i > 0 && r.IntN(6) == 0 {
				ids[i] = ids[r.IntN(i)] + "b" // one ID the prefix of another
			}
		}
		least := r.IntN(6)
		if got, want := uniquePrefixes(ids, least), slow(ids, least); !slices.Equal(got, want) {
			t.Fatalf("uniquePrefixes(%q, %d) = %q, want %q", ids, least, got, want)
		}
	}
	// Thousands of IDs: fast enough to be a test at all.
	ids := make([]string, 20000)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x-%04x", r.Uint32(), i)
	}
	for i, p := range uniquePrefixes(ids, 8) {
		if !strings.HasPrefix(ids[i], p) || len(p) < 8 {
			t.Fatalf("%q cut to %q", ids[i], p)
		}
	}
}

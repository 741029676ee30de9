package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/store"
)

// An array written an element at a time is byte for byte what writeJSON
// makes of the whole slice: no element, one, several; strings with & < >
// (kept), C1 controls (escaped) and newlines; nested objects.
func TestJSONArrayIsWriteJSON(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	row := func(id, title string) listed {
		return listed{Record: store.Record{Tool: "claude", ID: id, Cwd: "/w", Title: title, Updated: now, Ended: &now}, Resume: "cd '/w' && claude --resume '" + id + "'"}
	}
	cases := [][]listed{
		{},
		{row("a", "one")},
		{row("a", "fix <this> & that"), row("b", "csi \u009b[31m here\nand a second line"), row("c", "")},
	}
	defer func(w io.Writer) { stdout = w }(stdout)
	for _, rows := range cases {
		var want bytes.Buffer
		stdout = &want
		if err := writeJSON(rows); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		a := newJSONArray(&got)
		for _, r := range rows {
			if err := a.add(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.close(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d rows:\n%s\nwant:\n%s", len(rows), got.String(), want.String())
		}
		if len(rows) > 1 && !strings.Contains(got.String(), `\u009b`) {
			t.Errorf("a C1 control went out raw:\n%s", got.String())
		}
	}
}

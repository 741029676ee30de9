// Package readertest is what the tests of the agents' index readers
// (harness.Indexer) share. Only tests import it.
package readertest

import (
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/index"
)

// SumLearned merges the reads of one conversation as the index does.
func SumLearned(d harness.Delta) harness.Learned {
	var s harness.Learned
	for _, l := range d {
		if s.Cwd == "" {
			s.Cwd = l.Cwd
		}
		if s.Title == "" {
			s.Title = l.Title
		}
		if !l.Started.IsZero() && (s.Started.IsZero() || l.Started.Before(s.Started)) {
			s.Started = l.Started
		}
		if l.Active.After(s.Active) {
			s.Active = l.Active
		}
		s.Turns += l.Turns
		s.Messages += l.Messages
		s.Texts = append(s.Texts, l.Texts...)
		s.Side = s.Side || l.Side
	}
	return s
}

// OpenIndex opens an index in memory over one agent's home, closed when
// the test ends.
func OpenIndex(t testing.TB, a harness.Agent, home string) *index.Index {
	t.Helper()
	x, err := index.Open("", index.Options{Agents: []harness.Agent{a}, Homes: func(harness.Agent) []string { return []string{home} },
		Text: true, Warn: func(m string) { t.Log("warning: " + m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// Refresh sweeps the index, failing the test on an error.
func Refresh(t testing.TB, x *index.Index) {
	t.Helper()
	if _, err := x.Refresh(index.Scope{Full: true}); err != nil {
		t.Fatal(err)
	}
}

// Found returns the IDs of the conversations a search of words finds.
func Found(t testing.TB, x *index.Index, words string) []string {
	t.Helper()
	hits, err := x.Search(index.Query{Terms: strings.Fields(words)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

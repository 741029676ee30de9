package index

import (
	"slices"
	"testing"
)

// Holding finds what Search finds, as tool:id keys, the last word taken as
// the start of a word when asked (a picker's filter as it is typed).
func TestHolding(t *testing.T) {
	h := newToyHome(t)
	h.write("/src/alpha", idA, "C /src/alpha", "1700000000 P Fix the Login router", "1700000100 R moved the login page")
	h.write("/src/beta", idB, "C /src/beta", "1700000200 P write the release notes", "1700000300 R notes written for zebra")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	tool := toyAgent.Name
	for _, c := range []struct {
		q      []string
		prefix bool
		want   []string
	}{
		{[]string{"login"}, false, []string{tool + ":" + idA}},
		{[]string{"zeb"}, false, nil},
		{[]string{"zeb"}, true, []string{tool + ":" + idB}},
		{[]string{"notes", "wri"}, true, []string{tool + ":" + idB}},
		{[]string{"login", "wri"}, true, nil},
	} {
		terms, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := x.Holding(Query{Terms: terms, Prefix: c.prefix})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("Holding %q (prefix %v): %q, want %q", c.q, c.prefix, got, c.want)
		}
	}
	terms, _ := ParseQuery([]string{"the"})
	if got, _ := x.Holding(Query{Terms: terms, Limit: 1}); len(got) != 1 {
		t.Errorf("Holding with a limit of 1: %q", got)
	}
	if _, err := x.Holding(Query{}); err != ErrEmptyQuery {
		t.Errorf("Holding of nothing: %v", err)
	}
}

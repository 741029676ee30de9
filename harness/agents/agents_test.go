package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

const uid = harnesstest.UID

// TestList holds what every other package relies on of the list: agents in
// name order, each name once, each a lowercase word, each with an ID
// grammar and a resume spelling.
func TestList(t *testing.T) {
	if len(list) == 0 {
		t.Fatal("no agent")
	}
	for i, a := range list {
		if a == nil || a.Spec == nil || a.Behaviour == nil {
			t.Fatalf("list[%d] is not a whole agent: %+v", i, a)
		}
		valid := a.Name != "" && a.ID != nil && a.ID.Valid != nil && a.ID.ValidPrefix != nil && len(a.Resume.Words) > 0
		for _, c := range []byte(a.Name) {
			valid = valid && ('a' <= c && c <= 'z' || '0' <= c && c <= '9')
		}
		if !valid {
			t.Errorf("%q: an invalid spec", a.Name)
		}
		for _, w := range a.Widening {
			if len(w.Option) < 2 || w.Option[0] != '-' || strings.ContainsAny(w.Option, "= ") {
				t.Errorf("%q: widening option %q is not an option's name", a.Name, w.Option)
			}
		}
		if i > 0 && list[i-1].Name >= a.Name {
			t.Errorf("%q after %q: the list is in name order, each name once", a.Name, list[i-1].Name)
		}
	}
	if !slices.IsSorted(Names()) || len(All()) != len(list) {
		t.Errorf("Names %q, All %d agents", Names(), len(All()))
	}
	for _, name := range Names() {
		if a, ok := Named(name); !ok || a.Name != name {
			t.Errorf("Named(%q) = %q, %v", name, a.Name, ok)
		}
	}
	if _, ok := Named(""); ok {
		t.Error("an agent without a name")
	}
}

// Every agent can be indexed: its conversation files (harness.Indexer) or
// its database (harness.DBIndexer). Without either, nothing of its store
// enters the index, so every command would see its conversations as gone:
// list marks each record "(gone)", and resume finds nothing to offer.
func TestEveryAgentIsIndexed(t *testing.T) {
	for _, a := range All() {
		_, files := a.Behaviour.(harness.Indexer)
		_, db := a.Behaviour.(harness.DBIndexer)
		if !files && !db {
			t.Errorf("%s: its Behaviour implements neither harness.Indexer (conversations in files) nor harness.DBIndexer (in a database): "+
				"without one, the index never holds its conversations, and every command sees them as gone", a.Name)
		}
	}
}

// All is a copy: what a caller does with it never reaches the list.
func TestAllIsACopy(t *testing.T) {
	all := All()
	all[0].Spec = nil
	if list[0].Spec == nil {
		t.Fatal("All handed out the list itself")
	}
}

func TestValidID(t *testing.T) {
	for _, a := range All() {
		if a.ID.Valid(uid) != ValidID(a.Name, uid) {
			t.Errorf("ValidID(%s) does not follow its grammar", a.Name)
		}
		if ValidID(a.Name, "../"+uid) || ValidID(a.Name, "") {
			t.Errorf("ValidID(%s) accepted a path", a.Name)
		}
	}
	if ValidID("nosuch", uid) || ValidID("", uid) {
		t.Error("ValidID accepted an agent that is not listed")
	}
	if !ValidIDOfAny(uid) || ValidIDOfAny(strings.ToUpper(uid)) || ValidIDOfAny(uid+"0") {
		t.Error("ValidIDOfAny")
	}
}

func TestValidPrefixOfAny(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"0f8b", true}, {"0f8", false}, {"0f8b2c3e-", true}, {"0f8b2c3e4", false},
		{"0F8B", false}, {uid, true}, {uid + "0", false}, {"0f8b2c3e-4d", true},
	}
	for _, c := range cases {
		if got := ValidPrefixOfAny(c.in, 4); got != c.want {
			t.Errorf("ValidPrefixOfAny(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

package catalog

import (
	"fmt"
	"strings"
)

// A conversation can be asked for by the name its agent keeps for it
// (harness.Namer): the ones of the query's directory first, then every
// directory's records. The name only selects an entry; the line is built
// from the entry's ID like any other.

// byName finds the one conversation named q.Ref: of those the index knows
// by that name (exactly, else ignoring case), the ones of the query's
// directory first, then every directory's. ok is false when no
// conversation has that name.
func (c *Catalog) byName(q Query) (p Plan, ok bool, err error) {
	x, err := c.index(q.Dir)
	if err != nil {
		return Plan{}, false, err
	}
	list, err := x.Named(q.Ref)
	if err != nil {
		return Plan{}, false, err
	}
	var all, here []Entry
	for _, v := range list {
		e, ok := c.entry(v, false)
		if !ok || e.Name == "" || q.Tool != "" && e.Tool != q.Tool {
			continue
		}
		all = append(all, e)
		if e.Cwd == q.Dir {
			here = append(here, e)
		}
	}
	match := named(here, q.Ref)
	if len(match) == 0 {
		match = named(all, q.Ref)
	}
	switch len(match) {
	case 0:
		return Plan{}, false, nil
	case 1:
		return Plan{Entry: match[0]}, true, nil
	}
	lines := make([]string, len(match))
	for i, e := range match {
		lines[i] = describe(e)
	}
	return Plan{}, true, &Error{Kind: Invalid,
		Msg:  fmt.Sprintf("%d conversations are named %q:\n%s", len(match), q.Ref, strings.Join(lines, "\n")),
		Next: "name the one you mean by its ID: fleetcom resume ID"}
}

// named keeps the entries called name: exactly, else ignoring case.
func named(entries []Entry, name string) []Entry {
	var exact, folded []Entry
	for _, e := range entries {
		switch {
		case e.Name == "":
		case e.Name == name:
			exact = append(exact, e)
		case strings.EqualFold(e.Name, name):
			folded = append(folded, e)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return folded
}

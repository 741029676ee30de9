package catalog

import (
	"fmt"
	"strings"
)

// A conversation can be asked for by the name its agent keeps for it
// (harness.Namer): the ones of the query's directory first, then every
// directory's records. The name only selects an entry; the line is built
// from the entry's ID like any other.

// byName finds the one conversation named q.Ref. ok is false when no
// conversation has that name.
func (c *Catalog) byName(q Query) (p Plan, ok bool, err error) {
	here, _ := c.Dir(q.Dir, q.Tool, true)
	match := named(here, q.Ref)
	if len(match) == 0 {
		all, err := c.All()
		if err != nil {
			return Plan{}, false, err
		}
		if q.Tool != "" {
			all = ofTool(all, q.Tool)
		}
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

// ofTool keeps the entries of one tool.
func ofTool(entries []Entry, tool string) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.Tool == tool {
			out = append(out, e)
		}
	}
	return out
}

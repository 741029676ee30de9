// Package agents is the list of the agent CLIs fleetcom knows, and the
// only way the rest of fleetcom reaches them: it names each agent's
// package once (list.go) and answers by name (Named), for all of them (All,
// Names), and for the IDs of all of them (ValidID, ValidIDOfAny,
// ValidPrefixOfAny). It holds no knowledge of any agent: that is in the
// agent's own package, harness/<name>, which exports the one value listed
// here, and nothing but this package and that agent's own tests, fakes and
// e2e world imports it (TestImportBoundary).
//
// The shim reaches this package on every start (Named, from the program
// word), so it keeps to plain loops over the list: no init work, no
// allocation, and no package a start would not load anyway.
package agents

import "github.com/fleetcom/fleetcom/harness"

// All returns every agent, ordered by name.
func All() []harness.Agent {
	out := make([]harness.Agent, len(list))
	for i, a := range list {
		out[i] = *a
	}
	return out
}

// Named returns the agent called name.
func Named(name string) (harness.Agent, bool) {
	for _, a := range list {
		if a.Name == name {
			return *a, true
		}
	}
	return harness.Agent{}, false
}

// Names lists the agents' names, ordered.
func Names() []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.Name
	}
	return out
}

// ValidID reports whether tool names an agent and id is an ID of its
// grammar: the validation boundary for records, whose file names and
// contents name both.
func ValidID(tool, id string) bool {
	a, ok := Named(tool)
	return ok && a.ID.Valid(id)
}

// ValidIDOfAny reports whether id is a whole ID of some agent.
func ValidIDOfAny(id string) bool {
	for _, a := range list {
		if a.ID.Valid(id) {
			return true
		}
	}
	return false
}

// ValidPrefixOfAny reports whether s could begin an ID of some agent, with
// at least min characters.
func ValidPrefixOfAny(s string, min int) bool {
	for _, a := range list {
		if a.ID.ValidPrefix(s, min) {
			return true
		}
	}
	return false
}

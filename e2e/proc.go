package e2e

import (
	"maps"
	"slices"

	"github.com/fleetcom/fleetcom/internal/termtest"
)

// descendants returns pid and every process below it, read from /proc.
func descendants(pid int) []int {
	return slices.Collect(maps.Keys(termtest.Descendants(pid)))
}

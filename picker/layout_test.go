package picker

import (
	"slices"
	"testing"
)

func TestFit(t *testing.T) {
	for _, c := range []struct {
		natural []int
		avail   int
		want    []int
	}{
		{[]int{6, 3, 20, 30}, 100, []int{6, 3, 20, 30}}, // all fit
		{[]int{6, 3, 40, 40}, 60, []int{6, 3, 23, 22}},  // 60-6 gaps = 54; 6+3 stay, 45 shared
		{[]int{6, 3, 40, 10}, 40, []int{6, 3, 15, 10}},  // the widest gives way first
		{[]int{6, 3, 40, 40}, 6, []int{0, 0, 0, 0}},     // not even the gaps fit
		{[]int{6, 3, 40, 40}, 14, []int{2, 2, 2, 2}},    // 8 cells for 4 columns
		{[]int{}, 10, []int{}},
	} {
		got := fit(c.natural, c.avail)
		if !slices.Equal(got, c.want) {
			t.Errorf("fit(%v, %d) = %v, want %v", c.natural, c.avail, got, c.want)
		}
		sum := gap * max(len(got)-1, 0)
		for _, w := range got {
			sum += w
		}
		if sum > c.avail && slices.Max(append(got, 0)) > 0 {
			t.Errorf("fit(%v, %d) = %v takes %d cells", c.natural, c.avail, got, sum)
		}
	}
}

func TestFormat(t *testing.T) {
	widths := []int{6, 3, 8, 5}
	got := format([]string{"anchor", "2h", "fix the flaky store test", "/home/u/src"}, widths)
	if want := "anchor  2h   fix the…  /hom…"; got != want {
		t.Errorf("format = %q, want %q", got, want)
	}
	tab := newTable([]string{"TOOL", "AGE"}, []Row{{Key: "k", Cols: []string{"x\x1b[2J", "1d", "extra"}}})
	if len(tab.natural) != 3 || tab.cells[0][0] != "x^[[2J" || tab.natural[0] != 6 {
		t.Errorf("newTable = %+v", tab)
	}
}

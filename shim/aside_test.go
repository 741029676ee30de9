package shim

import (
	"strconv"
	"testing"
)

func TestMidSequence(t *testing.T) {
	for _, c := range []struct {
		tail string
		want bool
	}{
		{"", false},
		{"plain text", false},
		{"\x1b[31mred", false},
		{"\x1b[3", true},
		{"\x1b[38;5;", true},
		{"\x1b", true},
		{"\x1b]0;title", true},
		{"\x1b]0;title\x07", false},
		{"\x1b]8;;http://x\x1b\\", false},
		{"\x1bP+q", true},
		{"\x1b(", true},
		{"\x1b(B", false},
		{"\x1b7", false},
		{"é", false},
		{"\xc3", true},        // the first byte of é
		{"ok \xe2\x94", true}, // two bytes of ─
		{"ok \xe2\x94\x80", false},
	} {
		if got := midSequence([]byte(c.tail)); got != c.want {
			t.Errorf("midSequence(%q) = %v, want %v", c.tail, got, c.want)
		}
	}
}

// TestPTYAside: bytes written aside reach the user's terminal between the
// child's chunks, never inside one of its escape sequences.
func TestPTYAside(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	a := &Aside{}
	pieces := []string{"R", "\x1b[3", "1mX", "Y"}
	args := make([]string, len(pieces))
	for i, p := range pieces {
		args[i] = strconv.Quote(p)
	}
	c := spawnAsync(selfCmd(t, "pieces", args...), SpawnOptions{Stdin: u.slave, Stdout: u.slave, Stderr: u.slave, Aside: a})
	u.out.waitFor(t, "R")
	a.Write([]byte("<1>")) // at a safe point: out at once
	u.out.waitFor(t, "R<1>")
	u.typeIn(t, "a")
	u.out.waitFor(t, "R<1>\x1b[3")
	a.Write([]byte("<2>")) // inside the child's CSI: held back
	u.typeIn(t, "b")
	u.out.waitFor(t, "1mX")
	u.typeIn(t, "c")
	u.out.waitFor(t, "Y")
	u.typeIn(t, "d")
	d := waitSpawn(t, c, 10e9)
	if d.err != nil || d.st.Code != 0 {
		t.Fatalf("Spawn = %+v, %v", d.st, d.err)
	}
	if got, want := string(u.out.bytes()), "R<1>\x1b[31mX<2>Y"; got != want {
		t.Errorf("terminal got %q, want %q", got, want)
	}
}

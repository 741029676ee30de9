package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMerge(t *testing.T) {
	now := at(10_000)
	base := func() Record {
		return Record{
			Tool: "anchor", ID: testID(1), Cwd: "/old/dir", Home: "/old/home",
			Command: "anchor", Program: "anchor", Source: "pinned",
			Started: at(100), Title: "old title", Updated: at(150),
		}
	}
	// Each case edits the stored record, the incoming one and the expected
	// result, all starting from base; want always gets Updated = now.
	tests := []struct {
		name string
		old  func(*Record)
		in   func(*Record)
		want func(*Record)
	}{
		{"identical write only stamps Updated", nil, nil, nil},
		{"Active follows a write that carries it",
			func(r *Record) { r.Active = ptr(at(90)) },
			func(r *Record) { r.Active = ptr(at(80)) },
			func(r *Record) { r.Active = ptr(at(80)) }},
		{"a write without Active keeps it",
			func(r *Record) { r.Active = ptr(at(90)) },
			nil,
			func(r *Record) { r.Active = ptr(at(90)) }},
		{"earlier Started wins",
			nil,
			func(r *Record) { r.Started = at(50) },
			func(r *Record) { r.Started = at(50) }},
		{"later Started does not move it",
			nil,
			func(r *Record) { r.Started = at(500) },
			nil},
		{"zero old Started is filled",
			func(r *Record) { r.Started = time.Time{} },
			func(r *Record) { r.Started = at(500) },
			func(r *Record) { r.Started = at(500) }},
		{"zero incoming Started keeps the old",
			nil,
			func(r *Record) { r.Started = time.Time{} },
			nil},
		{"Cwd and Home stay where the conversation began",
			nil,
			func(r *Record) { r.Cwd, r.Home = "/new/dir", "/new/home" },
			nil},
		{"empty Cwd and Home are filled",
			func(r *Record) { r.Cwd, r.Home = "", "" },
			func(r *Record) { r.Cwd, r.Home = "/new/dir", "/new/home" },
			func(r *Record) { r.Cwd, r.Home = "/new/dir", "/new/home" }},
		{"a finished run sets Ended and Exit",
			nil,
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(3) },
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(3) }},
		{"a later finished run replaces Ended and Exit",
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) },
			func(r *Record) { r.Started, r.Ended, r.Exit = at(300), ptr(at(400)), ptr(1) },
			func(r *Record) { r.Ended, r.Exit = ptr(at(400)), ptr(1) }},
		{"a finished run killed by a signal has Ended but no Exit",
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) },
			func(r *Record) { r.Ended, r.Exit = ptr(at(400)), nil },
			func(r *Record) { r.Ended, r.Exit = ptr(at(400)), nil }},
		{"a new run opening clears Ended and Exit",
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) },
			func(r *Record) { r.Started = at(300) },
			func(r *Record) { r.Ended, r.Exit = nil, nil }},
		{"a provisional write does not wipe an earlier Ended",
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) },
			func(r *Record) { r.Started = at(100) },
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) }},
		{"a write without Started does not reopen a run",
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) },
			func(r *Record) { r.Started = time.Time{} },
			func(r *Record) { r.Ended, r.Exit = ptr(at(200)), ptr(0) }},
		{"Source, Command and Program take a new value",
			nil,
			func(r *Record) { r.Source, r.Command, r.Program = "hint", "/opt/anchor --resume x", "/opt/anchor" },
			func(r *Record) { r.Source, r.Command, r.Program = "hint", "/opt/anchor --resume x", "/opt/anchor" }},
		{"empty Source, Command and Program keep the old",
			nil,
			func(r *Record) { r.Source, r.Command, r.Program = "", "", "" },
			nil},
		{"Title keeps the old",
			nil,
			func(r *Record) { r.Title = "new title" },
			nil},
		{"empty Title is filled",
			func(r *Record) { r.Title = "" },
			func(r *Record) { r.Title = "new title" },
			func(r *Record) { r.Title = "new title" }},
		{"empty incoming Title keeps the old",
			nil,
			func(r *Record) { r.Title = "" },
			nil},
		{"Resumable is set by a later run",
			nil,
			func(r *Record) { r.Resumable = true },
			func(r *Record) { r.Resumable = true }},
		{"Resumable is never downgraded",
			func(r *Record) { r.Resumable = true },
			nil,
			func(r *Record) { r.Resumable = true }},
		{"Options of the first launch survive",
			func(r *Record) { r.Options = []string{"--model", "opus"} },
			func(r *Record) { r.Options = []string{"--model", "sonnet"} },
			func(r *Record) { r.Options = []string{"--model", "opus"} }},
		{"Options are filled when there were none",
			nil,
			func(r *Record) { r.Options = []string{"--model", "sonnet"} },
			func(r *Record) { r.Options = []string{"--model", "sonnet"} }},
		{"a resume without Options keeps them",
			func(r *Record) { r.Options = []string{"--model", "opus"} },
			nil,
			func(r *Record) { r.Options = []string{"--model", "opus"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, in, want := base(), base(), base()
			in.Updated = time.Time{}
			for _, e := range []struct {
				f func(*Record)
				r *Record
			}{{tt.old, &old}, {tt.in, &in}, {tt.old, &want}, {tt.want, &want}} {
				if e.f != nil {
					e.f(e.r)
				}
			}
			want.Updated = now
			got := merge(old, in, now)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("merge (-want +got):\n%s", d)
			}
		})
	}
}

// TestPutMerges checks that Put applies the merge to what is on disk, across
// a conversation's life: spawn, exit, resume elsewhere, exit again.
func TestPutMerges(t *testing.T) {
	s, w := openTest(t)
	dir, other := physicalTempDir(t), physicalTempDir(t)

	spawn := Record{Tool: "anchor", ID: testID(7), Cwd: dir, Command: "anchor", Program: "anchor",
		Source: "pinned", Started: at(0), Home: "/h/.anchor", Options: []string{"--model", "opus"}}
	got := mustPut(t, s, spawn)
	if got.Ended != nil {
		t.Fatalf("after spawn: %+v", got)
	}

	exit := spawn
	exit.Source, exit.Title, exit.Resumable = "capture", "fix the build", true
	exit.Ended, exit.Exit = ptr(at(60)), ptr(0)
	mustPut(t, s, exit)

	resume := Record{Tool: "anchor", ID: testID(7), Cwd: other, Command: "/opt/bin/anchor --resume " + testID(7),
		Program: "/opt/bin/anchor", Source: "hint", Started: at(120), Home: "/elsewhere"}
	got = mustPut(t, s, resume)
	if got.Ended != nil || got.Exit != nil {
		t.Errorf("a new run left Ended=%v Exit=%v", got.Ended, got.Exit)
	}

	end := resume
	end.Ended, end.Exit = ptr(at(180)), ptr(2)
	last := mustPut(t, s, end)

	want := Record{Tool: "anchor", ID: testID(7), Cwd: dir, Command: resume.Command, Program: "/opt/bin/anchor",
		Source: "hint", Started: at(0),
		Ended: ptr(at(180)), Exit: ptr(2), Resumable: true, Home: "/h/.anchor", Title: "fix the build",
		Updated: last.Updated, Options: []string{"--model", "opus"}}
	if d := cmp.Diff(want, last); d != "" {
		t.Errorf("Put result (-want +got):\n%s", d)
	}
	stored, ok, err := s.Get("anchor", testID(7))
	if err != nil || !ok {
		t.Fatalf("Get: %v %v", ok, err)
	}
	if d := cmp.Diff(want, stored); d != "" {
		t.Errorf("stored record (-want +got):\n%s", d)
	}
	if recs, _ := s.Dir(other); len(recs) != 0 {
		t.Errorf("resuming elsewhere moved the record: %v", ids(recs))
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

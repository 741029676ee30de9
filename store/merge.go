package store

import (
	"slices"
	"time"
)

// merge folds an incoming write for a conversation into the record already on
// disk. It is a plain function so every rule is table-tested without files.
//
// The rules, and why:
//   - Started keeps the earliest non-zero value: the conversation began then.
//   - Cwd and Home keep the old value and are filled only when it is empty: a
//     conversation belongs to where it began, even when resumed elsewhere.
//   - Ended and Exit follow a write that carries Ended (a run finished). A
//     write with Ended nil whose Started is after the old Ended is a new run
//     opening, so both go back to nil; any other write with Ended nil (a
//     provisional or repeated spawn-time write) leaves them as they were.
//   - Source, Command and Program take the new value when it is non-empty:
//     the latest run is the one the user will want to repeat.
//   - Title keeps the old value unless it is empty: the first prompt names the
//     conversation.
//   - Active follows a write that carries it: it is what the agent's store
//     said when last read.
//   - Resumable is never downgraded; pruning removes dead conversations.
//   - Options keep the old value unless there is none, so the launch options
//     survive resumes and resuming never compounds them.
//   - Version, Evidence and Disagreed describe the latest finished run: a
//     write that carries evidence replaces them.
//   - Updated is now, on every write.
func merge(old, in Record, now time.Time) Record {
	out := old
	out.Started = earliest(old.Started, in.Started)
	if out.Cwd == "" {
		out.Cwd = in.Cwd
	}
	if out.Home == "" {
		out.Home = in.Home
	}
	switch {
	case in.Ended != nil:
		out.Ended, out.Exit = in.Ended, in.Exit
	case old.Ended != nil && in.Started.After(*old.Ended):
		out.Ended, out.Exit = nil, nil
	}
	if in.Source != "" {
		out.Source = in.Source
	}
	if in.Command != "" {
		out.Command = in.Command
	}
	if in.Program != "" {
		out.Program = in.Program
	}
	if out.Title == "" {
		out.Title = in.Title
	}
	if in.Active != nil {
		out.Active = in.Active
	}
	out.Resumable = old.Resumable || in.Resumable
	if len(out.Options) == 0 {
		out.Options = slices.Clone(in.Options)
	}
	if len(in.Evidence) > 0 {
		out.Version, out.Evidence, out.Disagreed = in.Version, slices.Clone(in.Evidence), slices.Clone(in.Disagreed)
	}
	out.Updated = now
	return out
}

func earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero():
		return a
	case b.Before(a):
		return b
	}
	return a
}

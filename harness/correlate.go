package harness

import "time"

// A store entry is taken for a run's only if it was created after the run
// started: one created before belongs to an earlier run, such as the
// conversation just before a run that was quit before its first prompt.
// spawnSlack absorbs the coarse clock file times are stamped with and
// millisecond timestamps. Codex IDs are stamped when the session starts, so
// its entries must also fall within correlationWindow after it.
const (
	spawnSlack        = 20 * time.Millisecond
	correlationWindow = 30 * time.Second
)

package harness

import "time"

// SpawnSlack is how much earlier than the spawn a store entry may be stamped
// and still be a run's own (Correlator). An entry is taken for a run's only
// if it was created after the run started: one created before belongs to an
// earlier run, such as the conversation just before a run that was quit
// before its first prompt. The slack absorbs the coarse clock file times are
// stamped with and millisecond timestamps.
const SpawnSlack = 20 * time.Millisecond

package index

import "syscall"

// syscallNoFollow opens a file without following a symlink in its place.
const syscallNoFollow = syscall.O_NOFOLLOW

// sweepLock is held by a sweep run in the background, so that at most one
// runs at a time.
const sweepLock = "sweep.lock"

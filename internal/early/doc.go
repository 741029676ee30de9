// Package early runs the shim's pass-through before most of Go's packages
// start.
//
// Most commands a shim sees are not ones it captures (`claude -p …`,
// `codex exec …`, `grok --version`): it only finds the real binary and
// replaces itself with it. On that path the cost of a Go program is its
// start-up, and most of that is the package initialisers (os, time, the TOML
// decoder, encoding/json, the agents' registry) and the page faults on their
// code and data. On Linux this package's init reads the command line from
// /proc/self/cmdline and the environment the runtime holds, and when the
// command is plainly one to pass on it finds the real binary on PATH and
// execs it with the hop record the shim would have set. It decides only
// what it can decide exactly as package shim does, and leaves everything
// else to the shim: a command that is or may be a captured form (options
// only, when the config may ask for those), a hop record already in the
// environment (a chain of wrappers), a FLEETCOM_<TOOL>_BIN, a config file
// that may name a binary, a duplicate or empty environment entry, no real
// binary, an exec that fails. Then the program starts as usual and the shim
// decides again, reporting any problem itself. cmd/fleetcom's tests hold
// that whatever this package passes on, the shim would have passed on to
// the same binary with the same arguments and environment; this package's
// own tests hold each rule of the lookup.
//
// # Why it runs first, and what must not be imported
//
// Go initialises a program's packages one at a time: of those whose imports
// are all initialised, the one whose import path sorts first. This
// package's path, "github.com/…", sorts before "internal/…", "os", "time"
// and the rest of what the shim needs, so its init runs as soon as its own
// imports are ready. Every program has internal/godebug (package time
// imports it), whose init is the costliest of the first ones, and it is
// ready once sync is: whatever imports sync, or io, or syscall, waits for
// it. So on Linux amd64 and arm64 this package makes its few system calls
// itself (sys_raw.go: package syscall's RawSyscall6, linked by name, with
// the kernel's numbers) and writes out FNV-1a rather than import hash/fnv,
// which brings in io; its imports are then path, slices and strconv, ready
// before sync. On the other systems it goes through package syscall
// (sys_std.go) and runs after syscall's init. Measured with bench/run.sh
// (a), 400 rounds: the pass-through 2-3 % faster than through syscall.
//
// The other trap is "strings" (and "bytes"): it imports "unicode", whose
// tables include maps built at init, and "unicode" sorts after "os";
// GODEBUG=inittrace=1 then shows "init os" before the exec. ("path" imports
// neither, as of Go 1.26.) So the code here spells out the few string
// operations it needs (cut, a substring test, upper case of ASCII), and
// TestImports holds the set of packages it may depend on: widen that list
// only after a look at GODEBUG=inittrace=1 and a run of bench/run.sh (a).
//
// # Small frames
//
// The inits run on a goroutine whose stack starts at 2 KiB. A function here
// with a large frame (a buffer as a local, which escape analysis leaves on
// the stack) makes the runtime grow that stack: it copies every frame and
// decodes each one's stack map, page faults in tables of the binary that
// the pass-through otherwise never reads. TestFramesSmall holds every frame
// under 1 KiB; a buffer the size of a path lives in static memory.
//
// Only Linux has /proc/self/cmdline; elsewhere there is no init, and the
// shim does everything.
package early

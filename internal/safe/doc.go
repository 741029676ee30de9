// Package safe holds the few careful primitives every other package of
// fleetcom shares: the UUID grammar behind the validation boundary, the
// subset of git's branch names a printed line may hold, the
// physical form of a directory, opening a file to read, append to or
// create without being blocked or fooled by what someone put in its place
// (every file fleetcom touches goes through these), atomic writes, bounded
// file locks and shell quoting that is safe in every shell fleetcom
// supports.
//
// It imports nothing of fleetcom and no module outside the standard
// library, so that harness, store, config and shim can all use it without
// depending on each other.
package safe

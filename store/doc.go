// Package store keeps fleetcom's session records on disk: where a
// conversation's ID lives between the moment a shim learns it and the moment
// the user asks for it back.
//
// It owns one directory, handed to Open by the caller. It knows nothing of
// XDG, the environment, terminals or the agent CLIs: which tools exist and
// what their IDs look like is the caller's validation boundary
// (Config.Valid). It imports no other package of fleetcom but internal/safe.
// A record holds no resume line: the caller builds it from the record.
//
// Layout under the directory (folders 0700, files 0600):
//
//	records/<tool>-<id>.json   one record per file: the truth
//	records/.tmp-*             a write in progress (flocked by its writer
//	                           until renamed), or left by a killed writer
//	dirs/<h>/<tool>-<id>       markers indexing records by directory (hard
//	                           links to the record's lock stripe, so a new
//	                           one costs no inode); <h> is safe.PathKey of
//	                           the physical cwd
//	locks/NN                   flock stripes, 64 of them, chosen by (tool, id)
//
// Main flow. Put validates the caller's record, resolves its Cwd to the
// physical directory, takes the stripe lock (waiting at most
// Config.LockWait for another process's write), reads the stored record, merges
// (see merge for the rules), writes the marker, then writes the record to a
// temp file (made ahead of time by Warm, when the caller warmed the store)
// that is synced, unless Config.SkipSync, and renamed over the old one. Dir resolves the
// queried directory the same way, lists its marker folder and reads only the
// records named there. All and Find list records/ and read the files whose
// names match.
//
// Invariants:
//   - A record is never returned unless it passed check and its file name
//     matches its identity. Anything else is skipped with one warning per
//     file per operation, and the other records are still returned.
//   - Record files are replaced atomically (and synced with their folder
//     before Put returns, unless Config.SkipSync), so a killed or crashed
//     writer leaves the old record or the new one, plus at most a stray temp
//     file that readers ignore (All removes those older than ten minutes
//     whose writer is gone, which the writer's flock on its temp file tells;
//     it is the only write a read does). A temp file a live writer holds is
//     never removed, however old: the shim warms one at the start of a run
//     and fills it at the end.
//   - The marker is written before the record, so every record is reachable
//     from its directory's index; a marker without a record is ignored.
//   - Only regular files are read (no symlinks, no FIFOs) and at most
//     maxRecordSize bytes of each, checked with fstat before reading.
//   - A record's Cwd changes only through Refile (a conversation moved to
//     another directory), which makes the new marker before the write and
//     removes the old one after.
package store

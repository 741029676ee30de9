package harness

// OpenDB opens the database file at path read-only for the readers of an
// agent's store that is a database (opencode's), and returns it with the
// function that closes it. fleetcom sets it to the index's opener, which
// links SQLite; fleetcom-shim, the program the shims run, must not (a
// driver's initialisation and size would cost every start): it leaves it
// nil, and those stores are then read with the sqlite3 program. An opener never writes: not the database, and
// no file beside it (a database whose write-ahead log is gone is opened
// immutable, as the sqlite3 fallback does).
var OpenDB func(path string) (Querier, func(), error)

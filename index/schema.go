package index

// version names the schema and what the readers put in it: a database of
// another version is rebuilt, never migrated (it is a cache).
const version = 4

// The schema. Times are Unix milliseconds. A conversation (conv) is keyed
// by its tool and ID; it may be known from the agent's store (stored: some
// source owns it), from fleetcom's record of it (rec), or both. Its text
// lives in chunk, the full-text table, one row per read that found text,
// with rowid conv.rowid<<chunkBits | seq, so that a conversation's chunks
// are one range of rowids and a chunk names its conversation without a
// lookup.
const schema = `
CREATE TABLE meta(k TEXT PRIMARY KEY, v ANY) WITHOUT ROWID;
CREATE TABLE conv(
	rowid INTEGER PRIMARY KEY,
	tool TEXT NOT NULL,
	id TEXT NOT NULL,
	cwd TEXT NOT NULL DEFAULT '',
	scwd TEXT NOT NULL DEFAULT '',
	home TEXT NOT NULL DEFAULT '',
	title TEXT NOT NULL DEFAULT '',
	summary TEXT NOT NULL DEFAULT '',
	name TEXT NOT NULL DEFAULT '',
	started INTEGER NOT NULL DEFAULT 0,
	active INTEGER NOT NULL DEFAULT 0,
	size INTEGER NOT NULL DEFAULT 0,
	turns INTEGER NOT NULL DEFAULT 0,
	msgs INTEGER NOT NULL DEFAULT 0,
	side INTEGER NOT NULL DEFAULT 0,
	stored INTEGER NOT NULL DEFAULT 0,
	rec TEXT,
	ractive INTEGER NOT NULL DEFAULT 0,
	rended INTEGER NOT NULL DEFAULT 0,
	rupdated INTEGER NOT NULL DEFAULT 0,
	forgotten INTEGER NOT NULL DEFAULT 0,
	textlen INTEGER NOT NULL DEFAULT 0,
	chunks INTEGER NOT NULL DEFAULT 0,
	UNIQUE(tool, id)
);
CREATE INDEX conv_cwd_activity ON conv(cwd, ` + activity + `);
CREATE INDEX conv_cwd_recorded ON conv(cwd, ` + activity + `) WHERE rec IS NOT NULL;
` + convActivity + `;
CREATE INDEX conv_id ON conv(id);
CREATE INDEX conv_name ON conv(name COLLATE NOCASE) WHERE name <> '';
CREATE INDEX conv_rechome ON conv(tool, home) WHERE rec IS NOT NULL;
CREATE TABLE source(
	path TEXT PRIMARY KEY,
	tool TEXT NOT NULL,
	home TEXT NOT NULL,
	owns INTEGER NOT NULL,
	dir TEXT NOT NULL,
	conv INTEGER,
	ino INTEGER NOT NULL DEFAULT 0,
	size INTEGER NOT NULL DEFAULT 0,
	mtime INTEGER NOT NULL DEFAULT 0,
	off INTEGER NOT NULL DEFAULT 0,
	state BLOB,
	seen INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX source_conv ON source(conv);
CREATE INDEX source_dir ON source(dir, mtime, path, ino, size);
CREATE INDEX source_mtime ON source(mtime);
CREATE TABLE dir(
	path TEXT PRIMARY KEY,
	tool TEXT NOT NULL,
	home TEXT NOT NULL,
	tree INTEGER NOT NULL,
	level INTEGER NOT NULL,
	parent TEXT NOT NULL,
	mtime INTEGER NOT NULL DEFAULT 0,
	seen INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX dir_parent ON dir(parent);
CREATE INDEX dir_mtime ON dir(mtime);
CREATE TABLE db(
	path TEXT PRIMARY KEY,
	tool TEXT NOT NULL,
	home TEXT NOT NULL,
	sig TEXT NOT NULL DEFAULT '',
	mark INTEGER NOT NULL DEFAULT 0,
	listed INTEGER NOT NULL DEFAULT 0
);
CREATE VIRTUAL TABLE chunk USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO chunk(chunk, rank) VALUES('automerge', 4);
INSERT INTO chunk(chunk, rank) VALUES('hashsize', ` + textHash + `);
`

// textHash is how many bytes of new terms the full-text table gathers in
// memory before it writes them out as a segment (FTS5's hashsize). Its
// default, 1 MB, makes a build of hundreds of MB of text write hundreds of
// small segments and then merge them; 8 MB writes an eighth as many, for
// that much more memory while a refresh writes. A setting of the table, so
// it holds for indexes built since.
const textHash = "8388608"

// convActivity makes the index of every conversation in the catalog's
// order: a listing of every directory (EachAll) reads from its first row
// on, where SQLite would otherwise sort them all before the first. Indexes
// built before it get it as they are opened (addActivity).
const convActivity = `CREATE INDEX IF NOT EXISTS conv_activity ON conv(` + activity + `)`

// chunkBits is how many low bits of a chunk's rowid number it within its
// conversation.
const chunkBits = 20

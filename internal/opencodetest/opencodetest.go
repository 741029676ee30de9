// Package opencodetest holds what the tests that stand in for opencode's
// database share. Only tests import it.
package opencodetest

// Schema makes the part of opencode 1.18.33's database that fleetcom reads
// and the fakes fill, as opencode's own migrations create it (measured, see
// e2e/README.md), in WAL mode as opencode keeps it. Feed it to sqlite3
// before the first rows.
const Schema = `PRAGMA journal_mode = WAL;
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text,
 slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL,
 share_url text, summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text,
 metadata text, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL,
 tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL,
 tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text,
 permission text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL,
 time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
 time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
 time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

// opencode's store, as 1.18.33 keeps it (measured): one SQLite database,
// <XDG_DATA_HOME>/opencode/opencode.db, with a session table (directory,
// title, times), message rows (data: JSON with the role) and part rows (data:
// JSON, a text part's text). A session's title is generated from its first
// prompt; one that never got one keeps "New session - <ISO time>". The rows
// are made as SQL and loaded by the sqlite3 program in one transaction.

const opencodeVersion = "1.18.33"

var _ = register(writer{
	name:  "opencode",
	usage: "  -opencode 5000 -opencode-messages 2000000\n",
	flags: func(fs *flag.FlagSet, o *opts) {
		fs.IntVar(&o.opencode, "opencode", 0, "opencode sessions (needs the sqlite3 program)")
		fs.IntVar(&o.opencodeMessages, "opencode-messages", 0, "opencode messages in all (default 20 per session)")
	},
	count: func(o opts) int { return o.opencode },
	write: (*world).writeOpencode,
})

// opencodeIndexes are the indexes 1.18.33's migrations make that the
// schema copy in opencodetest leaves out (measured with .schema on a real
// database). Without part_message_id_id_idx, a query joining a session's
// messages to their parts reads every part of the database. They are made
// after the rows, which is quicker and ends in the same database.
const opencodeIndexes = `CREATE INDEX IF NOT EXISTS session_project_idx ON session (project_id);
CREATE INDEX IF NOT EXISTS session_workspace_idx ON session (workspace_id);
CREATE INDEX IF NOT EXISTS session_parent_idx ON session (parent_id);
CREATE INDEX IF NOT EXISTS part_message_id_id_idx ON part (message_id, id);
CREATE INDEX IF NOT EXISTS part_session_idx ON part (session_id);
`

// opencodeRows is how many rows one INSERT statement carries.
const opencodeRows = 400

func (w *world) writeOpencode() error {
	path := filepath.Join(w.data, "opencode", "opencode.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists", path)
	}
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		return errors.New("the sqlite3 program is needed to write opencode's database")
	}
	cmd := exec.Command(sqlite, "-bail", path)
	cmd.Stderr = os.Stderr // stdout only echoes the journal mode
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	b := bufio.NewWriterSize(in, 1<<20)
	convs := w.opencodeSQL(b, path)
	err = b.Flush()
	in.Close()
	if werr := cmd.Wait(); err == nil {
		err = werr
	}
	if err != nil {
		return fmt.Errorf("sqlite3: %w", err)
	}
	w.add(convs...)
	return nil
}

// insert batches rows into multi-row INSERT statements, one table's
// statement at a time.
type insert struct {
	b     *bufio.Writer
	table string
	rows  []byte
	n     int
}

func (s *insert) row(values string) {
	if s.n > 0 {
		s.rows = append(s.rows, ",\n"...)
	}
	s.rows = append(s.rows, values...)
	if s.n++; s.n == opencodeRows {
		s.flush()
	}
}

func (s *insert) flush() {
	if s.n > 0 {
		s.b.WriteString("INSERT INTO " + s.table + " VALUES\n")
		s.b.Write(s.rows)
		s.b.WriteString(";\n")
		s.rows, s.n = s.rows[:0], 0
	}
}

// sqlStr quotes s as an SQL string.
func sqlStr(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// opencodeSQL writes the schema and every row; it returns the sessions.
func (w *world) opencodeSQL(b *bufio.Writer, db string) []conv {
	b.WriteString(opencodetest.Schema)
	b.WriteString("BEGIN;\n")
	sessions := &insert{b: b, table: "session"}
	messages := &insert{b: b, table: "message"}
	parts := &insert{b: b, table: "part"}
	n := w.opencode
	total := w.opencodeMessages
	if total == 0 {
		total = 20 * n
	}
	mean := float64(total) / float64(max(n, 1))
	var convs []conv
	counter := 0
	last := map[string]string{} // directory -> its last session, a child's parent
	for i := range n {
		r := w.rng("opencode", i)
		cwd := w.project(i % max(w.dirs, 1))
		start := w.startOf(r, i, n)
		id := opencodeID(r, "ses_", start, i, true)
		ms := markersOf("opencode", i, n)
		count := max(2, int(mean*math.Exp(r.NormFloat64()*0.8-0.32)))
		count -= count % 2
		c := &clock{t: start, r: r}
		first := ""
		var size int64
		for k := 0; k < count; k += 2 {
			prompt := w.prompt(r, pick(ms, "prompt", k == 0))
			if first == "" {
				first = prompt
			}
			at := c.pause()
			uid := opencodeID(r, "msg_", at, counter, false)
			counter++
			data := fmt.Sprintf(`{"role":"user","time":{"created":%d},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-5"},"summary":{"diffs":[]}}`, at.UnixMilli())
			messages.row(fmt.Sprintf("(%s,%s,%d,%d,%s)", sqlStr(uid), sqlStr(id), at.UnixMilli(), at.UnixMilli(), sqlStr(data)))
			text := `{"type":"text","text":` + string(appendStr(nil, prompt)) + `}`
			parts.row(w.part(r, uid, id, at, counter, text))
			counter++
			size += int64(len(data) + len(text))

			done := c.step()
			aid := opencodeID(r, "msg_", done, counter, false)
			counter++
			in := 8000 + r.IntN(60000)
			data = fmt.Sprintf(`{"parentID":"%s","role":"assistant","mode":"build","agent":"build","path":{"cwd":%s,"root":"/"},"cost":0,"tokens":{"total":%d,"input":%d,"output":60,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"claude-sonnet-5","providerID":"anthropic","time":{"created":%d,"completed":%d},"finish":"stop"}`,
				uid, appendStr(nil, cwd), in+60, in, at.UnixMilli(), done.UnixMilli())
			messages.row(fmt.Sprintf("(%s,%s,%d,%d,%s)", sqlStr(aid), sqlStr(id), at.UnixMilli(), done.UnixMilli(), sqlStr(data)))
			reply := `{"type":"text","text":` + string(appendStr(nil, w.reply(r, pick(ms, "reply", k == 0), 8+r.IntN(50)))) +
				fmt.Sprintf(`,"time":{"start":%d,"end":%d}}`, done.UnixMilli()-200, done.UnixMilli())
			parts.row(w.part(r, aid, id, done, counter, `{"type":"step-start"}`))
			parts.row(w.part(r, aid, id, done, counter+1, reply))
			parts.row(w.part(r, aid, id, done, counter+2, fmt.Sprintf(`{"reason":"stop","type":"step-finish","tokens":{"total":%d,"input":%d,"output":60,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}`, in+60, in)))
			counter += 3
			size += int64(len(data) + len(reply) + 200)
		}
		title, parent := w.reply(r, "", 3+r.IntN(5)), "NULL"
		switch {
		case r.IntN(50) == 0:
			title = "New session - " + stamp(start)
		case r.IntN(30) == 0 && last[cwd] != "":
			title, parent = "Child session - "+stamp(start), sqlStr(last[cwd])
		}
		slug := w.v.word(r) + "-" + w.v.word(r)
		sessions.row(fmt.Sprintf("(%s,'global',NULL,%s,%s,%s,%s,%s,'%s',NULL,0,0,0,NULL,NULL,0.0,0,0,0,0,0,NULL,NULL,'build','{\"id\":\"claude-sonnet-5\",\"providerID\":\"anthropic\"}',%d,%d,NULL,NULL)",
			sqlStr(id), parent, sqlStr(slug), sqlStr(cwd), sqlStr(strings.TrimPrefix(cwd, "/")), sqlStr(title), opencodeVersion, start.UnixMilli(), c.t.UnixMilli()))
		if parent == "NULL" {
			last[cwd] = id
			convs = append(convs, conv{tool: "opencode", version: opencodeVersion, id: id, cwd: cwd, home: filepath.Dir(db), start: start, end: c.t,
				title: first, turns: count / 2, bytes: size, path: db, markers: ms})
		}
	}
	for _, s := range []*insert{sessions, messages, parts} {
		s.flush()
	}
	b.WriteString(opencodeIndexes)
	b.WriteString("COMMIT;\nPRAGMA wal_checkpoint(TRUNCATE);\n")
	return convs
}

// part is the VALUES of one part row.
func (w *world) part(r *rand.Rand, msg, session string, at time.Time, counter int, data string) string {
	return fmt.Sprintf("(%s,%s,%s,%d,%d,%s)", sqlStr(opencodeID(r, "prt_", at, counter, false)), sqlStr(msg), sqlStr(session),
		at.UnixMilli(), at.UnixMilli(), sqlStr(data))
}

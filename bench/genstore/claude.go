package main

import (
	"flag"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness/claude"
)

// Claude Code transcripts, as 2.1.197 writes them (measured): one compact
// JSON object per line in projects/<slug of the cwd>/<uuid>.jsonl. A turn is
// a file-history-snapshot, the typed prompt, then per tool call an
// assistant tool_use line and a user line carrying the tool_result (the
// output twice: in the message, and in toolUseResult), then the answer and
// a turn_duration line; ai-title, last-prompt, and for a named conversation
// custom-title and agent-name lines sit between turns.

const (
	claudeVersion = "2.1.197"
	claudeModel   = "claude-opus-4-8"
)

var _ = register(writer{
	name: "claude",
	usage: `  -claude 100 | 2000 | 10000            transcripts in one directory
  -claude 10000 -claude-dirs 500        spread over 500 directories
  -claude-sidechain 1                   one 100 MiB transcript opening with 35,000 sub-agent lines
  -claude 10000 -claude-kb 420          a history of about 5 GB, mostly tool results
`,
	flags: func(fs *flag.FlagSet, o *opts) {
		fs.IntVar(&o.claude, "claude", 0, "Claude transcripts")
		fs.IntVar(&o.claudeDirs, "claude-dirs", 1, "project directories the Claude transcripts are spread over")
		fs.IntVar(&o.claudeKB, "claude-kb", 100, "mean size of a Claude transcript, KiB (most of it tool results)")
		fs.IntVar(&o.sidechain, "claude-sidechain", 0, "more Claude transcripts, in project-0000, whose first lines are sub-agent records")
		fs.IntVar(&o.sidechainMB, "sidechain-mb", 100, "size of each sub-agent transcript, MiB")
		fs.IntVar(&o.sidechainLines, "sidechain-lines", 35000, "sub-agent lines before the first real prompt")
	},
	count: func(o opts) int { return o.claude + o.sidechain },
	write: (*world).writeClaude,
})

// claudeT is one transcript being written.
type claudeT struct {
	w      *world
	r      *rand.Rand
	s      *sink
	c      *clock
	id     string
	tail   []byte // the fields every conversation line ends with
	parent string // the last line's uuid; "" for none
	msgs   int
	turns  int
}

func (w *world) writeClaude() error {
	home := filepath.Join(w.home, ".claude")
	n := w.claude
	err := w.parallel(n, func(i int) (conv, error) {
		r := w.rng("claude", i)
		cwd := w.project(i % max(w.claudeDirs, 1))
		return w.claudeTranscript(r, home, cwd, w.startOf(r, i, n), size(r, w.claudeKB<<10), 0, markersOf("claude", i, n))
	})
	if err != nil || w.sidechain == 0 {
		return err
	}
	return w.parallel(w.sidechain, func(i int) (conv, error) {
		r := w.rng("claude-sidechain", i)
		start := w.end.Add(-time.Duration(i+1) * time.Hour)
		c, err := w.claudeTranscript(r, home, w.project(0), start, w.sidechainMB<<20, w.sidechainLines, nil)
		c.kind = "sidechain"
		return c, err
	})
}

// claudeTranscript writes one transcript of about size bytes; with side > 0,
// it opens with that many sub-agent lines.
func (w *world) claudeTranscript(r *rand.Rand, home, cwd string, start time.Time, size, side int, ms []planted) (conv, error) {
	id := uuid4(r)
	path := filepath.Join(home, "projects", claude.ProjectSlug(cwd), id+".jsonl")
	s, err := create(path, 0o600)
	if err != nil {
		return conv{}, err
	}
	t := &claudeT{w: w, r: r, s: s, c: &clock{t: start, r: r}, id: id}
	t.tail = append(t.tail, `,"userType":"external","entrypoint":"cli","cwd":`...)
	t.tail = appendStr(t.tail, cwd)
	t.tail = append(t.tail, `,"sessionId":"`+id+`","version":"`+claudeVersion+`","gitBranch":"main"}`...)
	t.meta(`{"type":"permission-mode","permissionMode":"default","sessionId":"` + id + `"}`)
	name := ""
	if r.IntN(25) == 0 {
		name = w.v.word(r) + " " + w.v.word(r)
		t.named(name)
	}
	if side > 0 {
		t.sidechain(side, size-size/10)
	}
	first := ""
	mean := max(300, (size-int(s.n))/25)
	for t.turns == 0 || int(s.n) < size {
		prompt := w.prompt(r, pick(ms, "prompt", t.turns == 0))
		if first == "" {
			first = prompt
		}
		t.turn(prompt, mean, pick(ms, "reply", t.turns == 0), pick(ms, "tool", t.turns == 0))
		if t.turns == 1 {
			t.meta(`{"type":"ai-title","aiTitle":` + string(appendStr(nil, w.reply(r, "", 4+r.IntN(4)))) + `,"sessionId":"` + id + `"}`)
		}
	}
	last := `{"type":"last-prompt","lastPrompt":` + string(appendStr(nil, first)) + `,"leafUuid":"` + t.parent + `","sessionId":"` + id + `"}`
	t.meta(last)
	if name != "" {
		t.named(name)
	}
	if err := s.close(t.c.t); err != nil {
		return conv{}, err
	}
	return conv{tool: "claude", version: claudeVersion, id: id, cwd: cwd, home: home, start: start, end: t.c.t, title: first,
		turns: t.turns, bytes: s.n, path: path, markers: ms}, nil
}

// pick is the markers ms plants at where, in the first turn only.
func pick(ms []planted, where string, first bool) string {
	if !first {
		return ""
	}
	return at(ms, where)
}

func (t *claudeT) meta(line string) {
	t.s.line = append(t.s.line, line...)
	t.s.emit()
}

func (t *claudeT) named(name string) {
	q := string(appendStr(nil, name))
	t.meta(`{"type":"custom-title","customTitle":` + q + `,"sessionId":"` + t.id + `"}`)
	t.meta(`{"type":"agent-name","agentName":` + q + `,"sessionId":"` + t.id + `"}`)
}

// head starts a conversation line: parentUuid and isSidechain.
func (t *claudeT) head(side bool) []byte {
	b := append(t.s.line, `{"parentUuid":`...)
	if t.parent == "" {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = append(b, t.parent...)
		b = append(b, '"')
	}
	if side {
		return append(b, `,"isSidechain":true,"agentId":"a7c91e2"`...)
	}
	return append(b, `,"isSidechain":false`...)
}

// end finishes a conversation line with its uuid, time and the common tail.
func (t *claudeT) end(b []byte, extra string, at time.Time) {
	u := uuid4(t.r)
	b = append(b, `,"uuid":"`...)
	b = append(b, u...)
	b = append(b, `","timestamp":`...)
	b = appendStamp(b, at)
	b = append(b, extra...)
	b = append(b, t.tail...)
	t.s.line = b
	t.s.emit()
	t.parent = u
	t.msgs++
}

// turn writes a prompt, tool calls with their output, and the answer.
func (t *claudeT) turn(prompt string, mean int, replyMarker, toolMarker string) {
	r := t.r
	at := t.c.pause()
	pid := uuid4(r)
	snap := uuid4(r)
	b := append(t.s.line, `{"type":"file-history-snapshot","messageId":"`+snap+`","snapshot":{"messageId":"`+snap+`","trackedFileBackups":{},"timestamp":`...)
	b = appendStamp(b, at)
	t.s.line = append(b, `},"isSnapshotUpdate":false}`...)
	t.s.emit()

	b = t.head(false)
	b = append(b, `,"promptId":"`+pid+`","type":"user","message":{"role":"user","content":`...)
	b = appendStr(b, prompt)
	b = append(b, '}')
	t.end(b, `,"permissionMode":"default","origin":{"kind":"human"},"promptSource":"typed"`, at)
	if t.turns == 0 {
		b = t.head(false)
		b = append(b, `,"attachment":{"type":"skill_listing","content":`...)
		b = appendStr(b, t.w.reply(r, "", 300+r.IntN(300)))
		b = append(b, `,"skillCount":7,"isInitial":true},"type":"attachment"`...)
		t.end(b, "", t.c.step())
	}
	for k := range calls(r, toolMarker) {
		t.toolCall(pid, int(r.ExpFloat64()*float64(mean)), false, toolMarker)
		if k == 0 {
			toolMarker = ""
		}
	}
	t.assistantText(t.w.reply(r, replyMarker, 15+r.IntN(120)))
	b = t.head(false)
	b = append(b, `,"type":"system","subtype":"turn_duration","durationMs":`...)
	b = appendInt(b, int64(500+r.IntN(90000)))
	b = append(b, `,"messageCount":`...)
	b = appendInt(b, int64(t.msgs+1))
	t.end(b, `,"isMeta":false`, t.c.step())
	t.turns++
}

// assistant starts an assistant line's message.
func (t *claudeT) assistant(side bool) []byte {
	b := t.head(side)
	return append(b, `,"message":{"content":[`...)
}

// finish ends an assistant line's message.
func (t *claudeT) finish(b []byte, stop string, out int) {
	b = append(b, `],"id":"msg_`...)
	b = append(b, hexID(t.r, 24)...)
	b = append(b, `","model":"`+claudeModel+`","role":"assistant","stop_reason":"`+stop+`","stop_sequence":null,"type":"message","usage":{"input_tokens":`...)
	b = appendInt(b, int64(3+t.r.IntN(40)))
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = appendInt(b, int64(t.r.IntN(4000)))
	b = append(b, `,"cache_read_input_tokens":`...)
	b = appendInt(b, int64(20000+t.r.IntN(120000)))
	b = append(b, `,"output_tokens":`...)
	b = appendInt(b, int64(out))
	b = append(b, `,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"stop_details":null},"type":"assistant"`...)
	t.end(b, "", t.c.step())
}

func (t *claudeT) assistantText(text string) {
	b := t.assistant(false)
	b = append(b, `{"text":`...)
	b = appendStr(b, text)
	b = append(b, `,"type":"text"}`...)
	t.finish(b, "end_turn", len(text)/4)
}

// toolCall writes a tool_use and its result of about n bytes of output.
func (t *claudeT) toolCall(pid string, n int, side bool, marker string) {
	r := t.r
	tid := "toolu_" + hexID(r, 24)
	b := t.assistant(side)
	b = append(b, `{"id":"`+tid+`","input":{"command":`...)
	b = appendStr(b, t.w.command(r))
	b = append(b, `,"description":`...)
	b = appendStr(b, t.w.reply(r, "", 3+r.IntN(5)))
	b = append(b, `},"name":"Bash","type":"tool_use"}`...)
	t.finish(b, "tool_use", 20+r.IntN(200))
	asst := t.parent

	b = t.head(side)
	if !side {
		b = append(b, `,"promptId":"`+pid+`"`...)
	}
	b = append(b, `,"type":"user","message":{"role":"user","content":[{"tool_use_id":"`+tid+`","type":"tool_result","content":"`...)
	mark := len(b)
	b = t.w.output(b, r, n, marker)
	out := b[mark:]
	b = append(b, `","is_error":false}]}`...)
	extra := make([]byte, 0, len(out)+200)
	extra = append(extra, `,"toolUseResult":{"stdout":"`...)
	extra = append(extra, out...)
	extra = append(extra, `","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"sourceToolAssistantUUID":"`+asst+`"`...)
	t.end(b, string(extra), t.c.step())
}

// sidechain writes n sub-agent lines, tool calls and their results, making
// about bytes in all.
func (t *claudeT) sidechain(n, bytes int) {
	pairs := max(1, n/2)
	each := max(100, (bytes/pairs-1700)/2)
	for range pairs {
		t.toolCall("", each/2+t.r.IntN(each+1), true, "")
	}
}

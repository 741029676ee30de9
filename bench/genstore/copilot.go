package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"
)

// Copilot CLI sessions, as 1.0.102 writes them (measured):
// session-state/<uuid>/events.jsonl, one compact event per line,
// {"type","data","id","timestamp","parentId"}, chained by parentId:
// session.start (its context.cwd), per prompt user.message, a large
// system.message on the first, assistant.turn_start, session.usage_record,
// assistant.message (with toolRequests), per tool call
// tool.execution_start and tool.execution_complete (its result.content the
// output), assistant.turn_end; session.shutdown at the end. workspace.yaml
// beside it names the directory and, as name, the first prompt.

const copilotVersion = "1.0.102"

var _ = register(writer{
	name:  "copilot",
	usage: "  -copilot N\n",
	flags: func(fs *flag.FlagSet, o *opts) { fs.IntVar(&o.copilot, "copilot", 0, "Copilot sessions") },
	count: func(o opts) int { return o.copilot },
	write: (*world).writeCopilot,
})

type copilotS struct {
	w      *world
	r      *rand.Rand
	s      *sink
	c      *clock
	parent string
}

func (w *world) writeCopilot() error {
	home := filepath.Join(w.home, ".copilot")
	n := w.copilot
	return w.parallel(n, func(i int) (conv, error) {
		r := w.rng("copilot", i)
		return w.copilotSession(r, home, w.project(i%max(w.dirs, 1)), w.startOf(r, i, n), markersOf("copilot", i, n))
	})
}

// event writes one event of type typ whose data is the JSON object data.
func (x *copilotS) event(typ string, data []byte, at time.Time) {
	id := uuid4(x.r)
	b := append(x.s.line, `{"type":"`+typ+`","data":`...)
	b = append(b, data...)
	b = append(b, `,"id":"`+id+`","timestamp":`...)
	b = appendStamp(b, at)
	if x.parent == "" {
		b = append(b, `,"parentId":null}`...)
	} else {
		b = append(b, `,"parentId":"`+x.parent+`"}`...)
	}
	x.s.line = b
	x.s.emit()
	x.parent = id
}

func (w *world) copilotSession(r *rand.Rand, home, cwd string, start time.Time, ms []planted) (conv, error) {
	id := uuid4(r)
	dir := filepath.Join(home, "session-state", id)
	s, err := create(filepath.Join(dir, "events.jsonl"), 0o600)
	if err != nil {
		return conv{}, err
	}
	x := &copilotS{w: w, r: r, s: s, c: &clock{t: start, r: r}}
	cwdQ := string(appendStr(nil, cwd))
	x.event("session.start", fmt.Appendf(nil, `{"sessionId":"%s","version":1,"producer":"copilot-agent","copilotVersion":"%s","startTime":"%s","selectedModel":"gpt-5.5","contextTier":null,"context":{"cwd":%s},"alreadyInUse":false,"remoteSteerable":false}`,
		id, copilotVersion, stamp(start), cwdQ), start)
	x.event("session.model_change", []byte(`{"source":"startup","contextTier":null,"newModel":"gpt-5.5","previousModel":"gpt-5.5","reasoningEffort":null}`), x.c.step())
	turns := 1 + r.IntN(8)
	first := ""
	for k := range turns {
		prompt := w.prompt(r, pick(ms, "prompt", k == 0))
		if first == "" {
			first = prompt
		}
		at := x.c.pause()
		mid, iid := uuid4(r), uuid4(r)
		b := append([]byte(`{"content":`), appendStr(nil, prompt)...)
		b = append(b, `,"transformedContent":`...)
		b = appendStr(b, "<current_datetime>"+at.UTC().Format("2006-01-02T15:04:05.000-07:00")+"</current_datetime>\n\n"+prompt)
		b = append(b, `,"messageId":"`+mid+`","supportedNativeDocumentMimeTypes":[],"delivery":"idle","interactionId":"`+iid+`","turnId":"0"}`...)
		x.event("user.message", b, at)
		if k == 0 {
			b = append([]byte(`{"role":"system","content":`), appendStr(nil, "You are the GitHub Copilot CLI, a terminal assistant built by GitHub. "+w.reply(r, "", 3500))...)
			x.event("system.message", append(b, '}'), x.c.step())
		}
		tools := calls(r, pick(ms, "tool", k == 0))
		for t := 0; t <= tools; t++ {
			turn := fmt.Sprint(t)
			x.event("assistant.turn_start", []byte(`{"turnId":"`+turn+`","interactionId":"`+iid+`"}`), x.c.step())
			x.event("session.usage_record", fmt.Appendf(nil, `{"usage":{"model":"gpt-5.5","inputTokens":%d,"outputTokens":%d,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0,"cost":0.0,"duration":%d,"initiator":"user","interactionType":"conversation-agent"}}`,
				14000+r.IntN(50000), 10+r.IntN(400), 50+r.IntN(4000)), x.c.step())
			if t == tools {
				b = append([]byte(`{"messageId":"`+uuid4(r)+`","originatingMessageId":"`+mid+`","model":"gpt-5.5","content":`), appendStr(nil, w.reply(r, pick(ms, "reply", k == 0), 15+r.IntN(120)))...)
				x.event("assistant.message", append(b, `,"toolRequests":[],"interactionId":"`+iid+`","turnId":"`+turn+`"}`...), x.c.step())
				x.event("assistant.turn_end", []byte(`{"turnId":"`+turn+`"}`), x.c.step())
				break
			}
			call := "call_" + hexID(r, 24)
			args := string(append(append([]byte(`{"command":`), appendStr(nil, w.command(r))...), `,"description":"Run a command"}`...))
			x.event("assistant.message", []byte(`{"messageId":"`+uuid4(r)+`","originatingMessageId":"`+mid+`","model":"gpt-5.5","content":"","toolRequests":[{"toolCallId":"`+call+`","name":"bash","arguments":`+args+`,"type":"function","toolTitle":"Running command"}],"interactionId":"`+iid+`","turnId":"`+turn+`"}`), x.c.step())
			x.event("tool.execution_start", []byte(`{"toolCallId":"`+call+`","toolName":"bash","arguments":`+args+`,"turnId":"`+turn+`","model":"gpt-5.5","toolTitle":"Running command"}`), x.c.step())
			b = append([]byte(`{"toolCallId":"`+call+`","model":"gpt-5.5","interactionId":"`+iid+`","turnId":"`+turn+`","shellExecution":{"exitCode":0},"success":true,"result":{"content":"`), w.output(nil, r, int(r.ExpFloat64()*3000), pick(ms, "tool", k == 0 && t == 0))...)
			x.event("tool.execution_complete", append(b, `"}}`...), x.c.step())
			x.event("assistant.turn_end", []byte(`{"turnId":"`+turn+`"}`), x.c.step())
		}
	}
	x.event("session.shutdown", fmt.Appendf(nil, `{"accountingSnapshot":{"totalPremiumRequestCost":0.0,"totalUserRequests":%d,"sessionStartTime":"%s"}}`, turns, stamp(start)), x.c.step())
	end := x.c.t
	if err := s.close(end); err != nil {
		return conv{}, err
	}
	ws := fmt.Sprintf("id: %s\ncwd: %s\nclient_name: github/cli\nname: %s\nuser_named: false\nsummary_count: 0\nfork_count: 0\ncreated_at: %s\nupdated_at: %s\n",
		id, cwd, first, stamp(start), stamp(end))
	if err := writeFile(filepath.Join(dir, "workspace.yaml"), []byte(ws), end); err != nil {
		return conv{}, err
	}
	return conv{tool: "copilot", version: copilotVersion, id: id, cwd: cwd, home: home, start: start, end: end, title: first,
		turns: turns, bytes: s.n + int64(len(ws)), path: dir, markers: ms}, nil
}

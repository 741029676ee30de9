package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"
)

// Codex rollouts, as 0.171.0 writes them (measured): sessions/YYYY/MM/DD/
// rollout-<local time>-<v7 id>.jsonl, one compact line per item,
// {"timestamp","ordinal","type","payload"}. The first is session_meta, some
// 20 KB with the model's base instructions; each turn then brings
// task_started, turn_context and thread_settings_applied, the prompt as a
// response_item and an item_completed UserMessage, per tool call a
// function_call, a CommandExecution item and a function_call_output, then
// the answer and task_complete. 0.171.0 writes no user_message event at
// all. Thread names go to session_index.jsonl, one line per naming.

const codexVersion = "0.171.0"

var _ = register(writer{
	name: "codex",
	usage: `  -codex 2000 -codex-big-mb 300 -codex-names 20000
                                        rollouts, one of 300 MiB, 20,000 named threads
`,
	flags: func(fs *flag.FlagSet, o *opts) {
		fs.IntVar(&o.codex, "codex", 0, "Codex rollouts")
		fs.IntVar(&o.codexKB, "codex-kb", 100, "mean size of a rollout, KiB")
		fs.IntVar(&o.codexBigMB, "codex-big-mb", 0, "one more rollout, in project-0000, of this many MiB")
		fs.IntVar(&o.codexNames, "codex-names", 0, "named threads in session_index.jsonl (the rollouts' first, then made-up IDs)")
	},
	count: func(o opts) int { return o.codex + o.codexNames + o.codexBigMB },
	write: (*world).writeCodex,
})

type codexR struct {
	w       *world
	r       *rand.Rand
	s       *sink
	c       *clock
	id, cwd string
	ordinal int
	seq     int
}

func (w *world) writeCodex() error {
	home := filepath.Join(w.home, ".codex")
	n := w.codex
	err := w.parallel(n, func(i int) (conv, error) {
		r := w.rng("codex", i)
		return w.rollout(r, home, w.project(i%max(w.dirs, 1)), w.startOf(r, i, n), size(r, w.codexKB<<10), markersOf("codex", i, n))
	})
	if err != nil {
		return err
	}
	if w.codexBigMB > 0 {
		r := w.rng("codex-big", 0)
		c, err := w.rollout(r, home, w.project(0), w.end.Add(-90*time.Minute), w.codexBigMB<<20, nil)
		if err != nil {
			return err
		}
		c.kind = "big"
		w.add(c)
	}
	return w.sessionIndex(home)
}

// rollout writes one rollout of about size bytes.
func (w *world) rollout(r *rand.Rand, home, cwd string, start time.Time, size int, ms []planted) (conv, error) {
	id := uuid7(r, start)
	lt := start.Local()
	path := filepath.Join(home, "sessions", lt.Format("2006"), lt.Format("01"), lt.Format("02"),
		"rollout-"+lt.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	s, err := create(path, 0o600)
	if err != nil {
		return conv{}, err
	}
	x := &codexR{w: w, r: r, s: s, c: &clock{t: start, r: r}, id: id, cwd: cwd}
	x.meta(start)
	first, turns := "", 0
	for turns == 0 || int(s.n) < size {
		prompt := w.prompt(r, pick(ms, "prompt", turns == 0))
		if first == "" {
			first = prompt
		}
		x.turn(prompt, turns == 0, max(300, size/20), pick(ms, "reply", turns == 0), pick(ms, "tool", turns == 0))
		turns++
	}
	if err := s.close(x.c.t); err != nil {
		return conv{}, err
	}
	return conv{tool: "codex", version: codexVersion, id: id, cwd: cwd, home: home, start: start, end: x.c.t, title: first,
		turns: turns, bytes: s.n, path: path, markers: ms}, nil
}

// line starts a rollout line.
func (x *codexR) line(at time.Time, typ string) []byte {
	b := append(x.s.line, `{"timestamp":`...)
	b = appendStamp(b, at)
	b = append(b, `,"ordinal":`...)
	b = appendInt(b, int64(x.ordinal))
	x.ordinal++
	return append(b, `,"type":"`+typ+`","payload":`...)
}

func (x *codexR) emit(b []byte) {
	x.s.line = append(b, '}')
	x.s.emit()
}

func (x *codexR) cwdJSON() string { return string(appendStr(nil, x.cwd)) }

func (x *codexR) meta(start time.Time) {
	b := x.line(start.Add(3*time.Second), "session_meta")
	b = append(b, `{"account_scoped":true,"session_id":"`+x.id+`","id":"`+x.id+`","timestamp":`...)
	b = appendStamp(b, start)
	b = append(b, `,"cwd":`+x.cwdJSON()+`,"runtime_workspace_roots":[`+x.cwdJSON()+`],"originator":"codex-tui","cli_version":"`+codexVersion+`","source":"cli","thread_source":"user","model_provider":"openai","base_instructions":{"text":`...)
	b = appendStr(b, x.w.reply(x.r, "", 3300))
	b = append(b, `,"provenance":{"type":"model","model":"gpt-5.5-codex"}},"history_mode":"paginated","context_window":{"window_id":"`+uuid7(x.r, start)+`"}}`...)
	x.emit(b)
}

// turnID is a v7 ID of now, as Codex dates its turns and items.
func (x *codexR) turnID() string { return uuid7(x.r, x.c.t) }

func (x *codexR) turn(prompt string, first bool, mean int, replyMarker, toolMarker string) {
	r := x.r
	at := x.c.pause()
	tid := x.turnID()
	b := x.line(at, "event_msg")
	b = append(b, `{"type":"task_started","turn_attribution":{"turn_id":"`+tid+`","turn_trigger":"user","parent_turn_id":null,"initiating_agent_path":null,"root_turn_id":"`+tid+`"},"turn_id":"`+tid+`","root_turn_id":"`+tid+`","started_at":`...)
	b = appendInt(b, at.Unix())
	x.emit(append(b, `,"model_context_window":258400,"collaboration_mode_kind":"default"}`...))
	if first {
		b = x.line(x.c.step(), "response_item")
		b = append(b, `{"type":"message","id":"msg_`+x.turnID()+`","role":"developer","content":[`...)
		for k, n := range []int{330, 620, 200} {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":"input_text","text":`...)
			b = appendStr(b, "<"+x.w.v.word(r)+"_instructions>\n"+x.w.reply(r, "", n))
			b = append(b, '}')
		}
		x.emit(append(b, `],"internal_chat_message_metadata_passthrough":{"turn_id":"`+tid+`"}},"metadata":{"history_sequence":1,"sampled_through_sequence":0,"client_authored":false,"model_search_state":"unused"}`...))
		b = x.line(x.c.step(), "response_item")
		b = append(b, `{"type":"message","id":"msg_`+x.turnID()+`","role":"user","content":[{"type":"input_text","text":`...)
		b = appendStr(b, "<environment_context>\n  <cwd>"+x.cwd+"</cwd>\n  <shell>bash</shell>\n  <current_date>"+at.Format("2006-01-02")+"</current_date>\n  <timezone>Etc/UTC</timezone>\n</environment_context>")
		x.emit(append(b, `}]},"metadata":{"history_sequence":2,"sampled_through_sequence":0,"client_authored":false,"model_search_state":"unused"}`...))
	}
	b = x.line(x.c.step(), "turn_context")
	b = append(b, `{"turn_id":"`+tid+`","root_turn_id":"`+tid+`","disabled_plugin_ids":[],"cwd":`+x.cwdJSON()+`,"approval_policy":"on-request","approvals_reviewer":"user","permission_profile":{"type":"managed","file_system":{"type":"restricted","entries":[{"path":{"type":"special","value":{"kind":"root"}},"access":"read"},{"path":{"type":"path","path":`+x.cwdJSON()+`},"access":"write"}]},"network":"restricted"},"model":"gpt-5.5-codex","collaboration_mode":{"mode":"default","settings":{"model":"gpt-5.5-codex","reasoning_effort":null,"developer_instructions":`...)
	b = appendStr(b, x.w.reply(r, "", 200))
	x.emit(append(b, `}},"multi_agent_version":"v1","realtime_active":false,"summary":"none","sandbox_policy":{"type":"workspace-write","network_access":false,"exclude_tmpdir_env_var":false,"exclude_slash_tmp":false}}`...))

	at = x.c.step()
	b = x.line(at, "response_item")
	b = append(b, `{"type":"message","id":"msg_`+x.turnID()+`","role":"user","content":[{"type":"input_text","text":`...)
	b = appendStr(b, prompt)
	b = append(b, `}],"internal_chat_message_metadata_passthrough":{"turn_id":"`+tid+`","content_item_kinds":["user.text"]}},"metadata":{"history_sequence":`...)
	x.seq++
	b = appendInt(b, int64(x.seq+2))
	x.emit(append(b, `,"client_authored":false,"model_search_state":"unused"}`...))
	b = x.line(x.c.step(), "event_msg")
	b = append(b, `{"type":"item_completed","thread_id":"`+x.id+`","turn_id":"`+tid+`","item":{"type":"UserMessage","id":"`+x.turnID()+`","content":[{"type":"text","text":`...)
	b = appendStr(b, prompt)
	x.emit(append(b, `,"text_elements":[]}]}}`...))

	for k := range calls(r, toolMarker) {
		x.toolCall(tid, int(r.ExpFloat64()*float64(mean)), toolMarker)
		if k == 0 {
			toolMarker = ""
		}
	}
	reply := x.w.reply(r, replyMarker, 15+r.IntN(120))
	mid := "msg_" + hexID(r, 32)
	b = x.line(x.c.step(), "event_msg")
	b = append(b, `{"type":"item_completed","thread_id":"`+x.id+`","turn_id":"`+tid+`","item":{"type":"AgentMessage","id":"`+mid+`","content":[{"type":"Text","text":`...)
	b = appendStr(b, reply)
	x.emit(append(b, `}]}}`...))
	b = x.line(x.c.step(), "response_item")
	b = append(b, `{"type":"message","status":"completed","id":"`+mid+`","role":"assistant","content":[{"type":"output_text","text":`...)
	b = appendStr(b, reply)
	x.emit(append(b, `,"annotations":[]}]},"metadata":{"client_authored":false,"model_search_state":"unused"}`...))
	x.tokens(tid)
	b = x.line(x.c.step(), "event_msg")
	b = append(b, `{"type":"task_complete","root_turn_id":"`+tid+`","turn_id":"`+tid+`","last_agent_message":`...)
	b = appendStr(b, reply)
	x.emit(append(b, fmt.Sprintf(`,"started_at":%d,"completed_at":%d,"duration_ms":%d}`, at.Unix(), x.c.t.Unix(), x.c.t.Sub(at).Milliseconds())...))
}

// toolCall writes an exec_command call with about n bytes of output.
func (x *codexR) toolCall(tid string, n int, marker string) {
	r := x.r
	call := "call_" + hexID(r, 24)
	cmd := x.w.command(r)
	b := x.line(x.c.step(), "response_item")
	b = append(b, `{"type":"function_call","status":"completed","id":"fc_`+hexID(r, 24)+`","name":"exec_command","arguments":`...)
	b = appendStr(b, `{"cmd":`+string(appendStr(nil, cmd))+`}`)
	x.emit(append(b, `,"call_id":"`+call+`"},"metadata":{"client_authored":false,"model_search_state":"unused"}`...))
	x.tokens(tid)
	var out []byte
	out = x.w.output(out, r, n, marker)
	b = x.line(x.c.step(), "event_msg")
	b = append(b, `{"type":"item_completed","thread_id":"`+x.id+`","turn_id":"`+tid+`","item":{"type":"CommandExecution","id":"`+call+`","command":["/bin/bash","-lc",`...)
	b = appendStr(b, cmd)
	b = append(b, `],"status":"completed","aggregated_output":"`...)
	b = append(b, out...)
	x.emit(append(b, `","exit_code":0}}`...))
	b = x.line(x.c.step(), "response_item")
	b = append(b, `{"type":"function_call_output","id":"fco_`+x.turnID()+`","call_id":"`+call+`","output":"Chunk ID: `+hexID(r, 6)+`\nProcess exited with code 0\nOutput:\n`...)
	b = append(b, out...)
	x.emit(append(b, `"},"metadata":{"client_authored":false,"model_search_state":"unused"}`...))
}

func (x *codexR) tokens(tid string) {
	in := 12000 + x.r.IntN(90000)
	b := x.line(x.c.step(), "event_msg")
	x.emit(append(b, fmt.Sprintf(`{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"last_usage_includes_reasoning":false,"model_context_window":258400},"rate_limits":{"limit_id":"codex","primary":null,"secondary":null}}`,
		in, in/2, 40, in+40)...))
}

// sessionIndex writes session_index.jsonl: a name for every rollout, then
// made-up threads up to -codex-names lines, and a few renames.
func (w *world) sessionIndex(home string) error {
	if w.codexNames == 0 {
		return nil
	}
	r := w.rng("codex-index", 0)
	s, err := create(filepath.Join(home, "session_index.jsonl"), 0o600)
	if err != nil {
		return err
	}
	var ids []string
	for _, c := range w.convs {
		if c.tool == "codex" && len(ids) < w.codexNames {
			ids = append(ids, c.id)
		}
	}
	for len(ids) < w.codexNames {
		ids = append(ids, uuid7(r, w.startOf(r, len(ids), w.codexNames)))
	}
	at := w.end.Add(-w.span)
	for i, id := range ids {
		at = at.Add(w.span / time.Duration(len(ids)+1))
		name := w.reply(r, "", 3+r.IntN(5))
		if i%50 == 7 {
			nameLine(s, id, w.reply(r, "", 4), at)
		}
		nameLine(s, id, name[:len(name)-1], at.Add(time.Second))
	}
	return s.close(at)
}

func nameLine(s *sink, id, name string, at time.Time) {
	s.line = append(s.line, `{"id":"`+id+`","thread_name":`...)
	s.line = appendStr(s.line, name)
	s.line = append(s.line, `,"updated_at":"`...)
	s.line = at.UTC().AppendFormat(s.line, time.RFC3339Nano)
	s.line = append(s.line, `"}`...)
	s.emit()
}

package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fleetcom/fleetcom/harness/grok"
)

// Grok sessions, as 1.0.41 writes them (measured): sessions/<cwd,
// percent-encoded>/<v7 id>/ holding summary.json (indented), and
// chat_history.jsonl (the system prompt, an injected <user_info> line, a
// system reminder, then each prompt as <user_query>…</user_query> with its
// prompt_index and each answer), updates.jsonl (the ACP session/update
// stream), events.jsonl, prompt_context.json, rewind_points.jsonl and
// title_refresh_idx. Only text turns were measured, so only text turns are
// written; the large files fleetcom never reads (system_prompt.txt,
// tool_definitions.json) are left out.

const grokVersion = "1.0.41"

var _ = register(writer{
	name:  "grok",
	usage: "  -grok N\n",
	flags: func(fs *flag.FlagSet, o *opts) { fs.IntVar(&o.grok, "grok", 0, "Grok sessions") },
	count: func(o opts) int { return o.grok },
	write: (*world).writeGrok,
})

func (w *world) writeGrok() error {
	home := filepath.Join(w.home, ".grok")
	n := w.grok
	return w.parallel(n, func(i int) (conv, error) {
		r := w.rng("grok", i)
		// Only text turns are written: no marker goes in a tool's output.
		ms := slices.DeleteFunc(markersOf("grok", i, n), func(m planted) bool { return m.where == "tool" })
		return w.grokSession(r, home, w.project(i%max(w.dirs, 1)), w.startOf(r, i, n), ms)
	})
}

func (w *world) grokSession(r *rand.Rand, home, cwd string, start time.Time, ms []planted) (conv, error) {
	id := uuid7(r, start)
	dir := filepath.Join(home, "sessions", grok.DirName(cwd), id)
	chat, err := create(filepath.Join(dir, "chat_history.jsonl"), 0o644)
	if err != nil {
		return conv{}, err
	}
	upd, err := create(filepath.Join(dir, "updates.jsonl"), 0o644)
	if err != nil {
		return conv{}, err
	}
	ev, err := create(filepath.Join(dir, "events.jsonl"), 0o644)
	if err != nil {
		return conv{}, err
	}
	rew, err := create(filepath.Join(dir, "rewind_points.jsonl"), 0o644)
	if err != nil {
		return conv{}, err
	}
	c := &clock{t: start, r: r}
	cwdQ := string(appendStr(nil, cwd))
	chat.line = append(chat.line, `{"type":"system","content":`...)
	chat.line = appendStr(chat.line, "You are Grok released by xAI. "+w.reply(r, "", 250))
	chat.line = append(chat.line, '}')
	chat.emit()
	chat.line = append(chat.line, `{"type":"user","content":[{"type":"text","text":`...)
	chat.line = appendStr(chat.line, "<user_info>\nOS Version: linux\nShell: /bin/bash\nWorkspace Path: "+cwd+"\nToday's date: "+
		start.Format("2006-01-02")+"\n</user_info>\n\n<rules>\n"+w.reply(r, "", 250)+"\n</rules>")
	chat.line = append(chat.line, `}]}`...)
	chat.emit()
	chat.line = append(chat.line, `{"type":"user","content":[{"type":"text","text":"<system-reminder>\nThe following workflows are available:\n</system-reminder>"}],"synthetic_reason":"system_reminder"}`...)
	chat.emit()
	turns := 1 + r.IntN(8)
	first, ev0 := "", 2
	for k := range turns {
		prompt := w.prompt(r, pick(ms, "prompt", k == 0))
		reply := w.reply(r, pick(ms, "reply", k == 0), 15+r.IntN(120))
		if first == "" {
			first = prompt
		}
		at := c.pause()
		chat.line = append(chat.line, `{"type":"user","content":[{"type":"text","text":`...)
		chat.line = appendStr(chat.line, "<user_query>\n"+prompt+"\n</user_query>")
		chat.line = append(chat.line, fmt.Sprintf(`}],"prompt_index":%d}`, k)...)
		chat.emit()
		chat.line = append(chat.line, `{"type":"assistant","content":`...)
		chat.line = appendStr(chat.line, reply)
		chat.line = append(chat.line, `,"model_id":"grok-build"}`...)
		chat.emit()
		pid := uuid4(r)
		for _, u := range []struct{ method, body string }{
			{"session/update", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":` + string(appendStr(nil, prompt)) + fmt.Sprintf(`},"_meta":{"modelId":"grok-build","promptIndex":%d}}`, k)},
			{"session/update", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + string(appendStr(nil, reply)) + `}}`},
			{"_x.ai/session/update", `{"sessionUpdate":"turn_completed","prompt_id":"` + pid + `","stop_reason":"end_turn","usage":{"inputTokens":14093,"outputTokens":90,"totalTokens":14183,"modelCalls":1},"elapsed_ms":328}`},
		} {
			t := c.step()
			upd.line = append(upd.line, fmt.Sprintf(`{"timestamp":%d,"method":"%s","params":{"sessionId":"%s","update":%s,"_meta":{"eventId":"%s-%d","agentTimestampMs":%d}}}`,
				t.Unix(), u.method, id, u.body, id, ev0, t.UnixMilli())...)
			upd.emit()
			ev0 += 3
		}
		ev.line = append(ev.line, fmt.Sprintf(`{"ts":"%s","type":"turn_started","session_id":"%s","turn_number":%d,"model_id":"grok-build","yolo_mode":false,"conversation_message_count":%d,"session_relationship":"primary","schema_version":"1.0"}`,
			stamp(at), id, k, 3+2*k)...)
		ev.emit()
		ev.line = append(ev.line, fmt.Sprintf(`{"ts":"%s","type":"turn_ended","outcome":"completed"}`, stamp(c.t))...)
		ev.emit()
		rew.line = append(rew.line, fmt.Sprintf(`{"prompt_index":%d,"created_at":"%s","file_snapshots":{},"after_snapshots":{}}`,
			k, at.UTC().Format(time.RFC3339Nano))...)
		rew.emit()
	}
	end := c.t
	var n int64
	for _, s := range []*sink{chat, upd, ev, rew} {
		n += s.n
		if err := s.close(end); err != nil {
			return conv{}, err
		}
	}
	title := w.reply(r, "", 4+r.IntN(4))
	summary := fmt.Sprintf(`{
  "info": {
    "id": "%s",
    "cwd": %s
  },
  "session_summary": %s,
  "created_at": "%s",
  "updated_at": "%s",
  "num_messages": %d,
  "num_chat_messages": %d,
  "current_model_id": "grok-build",
  "chat_format_version": 1,
  "grok_home": %s,
  "last_active_at": "%s",
  "generated_title": %s,
  "agent_name": "grok-build-plan",
  "sandbox_profile": "off"
}`, id, cwdQ, appendStr(nil, title), start.UTC().Format(time.RFC3339Nano), end.UTC().Format(time.RFC3339Nano),
		3+2*turns, 3+2*turns, appendStr(nil, home), end.UTC().Format(time.RFC3339Nano), appendStr(nil, title))
	n += int64(len(summary))
	files := map[string]string{
		"summary.json":      summary,
		"summary.json.lock": "",
		"title_refresh_idx": "1",
		"prompt_context.json": "{\n  \"version\": 1,\n  \"prompt_mode\": \"extend\",\n  \"audience\": \"primary\",\n  \"os_name\": \"linux\",\n  \"shell_path\": \"/bin/bash\",\n  \"working_directory\": " +
			cwdQ + ",\n  \"current_date\": \"" + start.Format("2006-01-02") + "\",\n  \"is_non_interactive\": false,\n  \"system_prompt_label\": \"Grok\"\n}",
	}
	for name, data := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(data), end); err != nil {
			return conv{}, err
		}
	}
	if err := os.Chtimes(dir, end, end); err != nil {
		return conv{}, err
	}
	return conv{tool: "grok", version: grokVersion, id: id, cwd: cwd, home: home, start: start, end: end, title: first,
		turns: turns, bytes: n, path: dir, markers: ms}, nil
}

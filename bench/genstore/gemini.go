package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"time"
)

// Gemini CLI sessions, as 0.61.0 writes them (measured, and read from its
// ChatRecordingService): tmp/<slug>/chats/session-<UTC YYYY-MM-DDTHH-MM>-
// <first 8 of the id>.jsonl, an append-only log of compact JSON lines. A
// metadata line first, then a $set of the messages with the session
// context Gemini puts first; each message is a line of its own
// ({"id","timestamp","type":"user"|"gemini","content",…}, a tool call's
// message carrying toolCalls with the output twice: in result and in
// resultDisplay), followed by {"$set":{"lastUpdated"}}; the summary Gemini
// writes as the title is a $set too. projects.json maps each directory to
// its slug, and tmp/<slug>/.project_root and history/<slug>/.project_root
// name the directory.

const (
	geminiVersion = "0.61.0"
	geminiModel   = "gemini-3.8-flash"
)

var _ = register(writer{
	name:  "gemini",
	usage: "  -gemini 100 | 2000 [-gemini-big-mb 100]\n",
	flags: func(fs *flag.FlagSet, o *opts) {
		fs.IntVar(&o.gemini, "gemini", 0, "Gemini CLI sessions, all in project-0000")
		fs.IntVar(&o.geminiKB, "gemini-kb", 100, "mean size of a Gemini session, KiB")
		fs.IntVar(&o.geminiBigMB, "gemini-big-mb", 0, "one more Gemini session, in project-0000, of this many MiB")
	},
	count: func(o opts) int { return o.gemini + o.geminiBigMB },
	write: (*world).writeGemini,
})

type geminiS struct {
	w   *world
	r   *rand.Rand
	s   *sink
	c   *clock
	cwd string
}

func (w *world) writeGemini() error {
	home := filepath.Join(w.home, ".gemini")
	cwd := w.project(0)
	slug := strings.ToLower(filepath.Base(cwd))
	for _, d := range []string{"tmp", "history"} {
		if err := writeFile(filepath.Join(home, d, slug, ".project_root"), []byte(cwd), w.end); err != nil {
			return err
		}
	}
	projects := "{\n  \"projects\": {\n    " + string(appendStr(nil, cwd)) + ": \"" + slug + "\"\n  }\n}"
	if err := writeFile(filepath.Join(home, "projects.json"), []byte(projects), w.end); err != nil {
		return err
	}
	chats := filepath.Join(home, "tmp", slug, "chats")
	n := w.gemini
	err := w.parallel(n, func(i int) (conv, error) {
		r := w.rng("gemini", i)
		return w.geminiSession(r, home, chats, cwd, w.startOf(r, i, n), (w.geminiKB<<9)+size(r, w.geminiKB<<10)/2, markersOf("gemini", i, n))
	})
	if err != nil || w.geminiBigMB == 0 {
		return err
	}
	r := w.rng("gemini-big", 0)
	c, err := w.geminiSession(r, home, chats, cwd, w.end.Add(-2*time.Hour), w.geminiBigMB<<20, nil)
	c.kind = "big"
	if err == nil {
		w.add(c)
	}
	return err
}

// geminiSession writes one session file of about size bytes.
func (w *world) geminiSession(r *rand.Rand, home, chats, cwd string, start time.Time, size int, ms []planted) (conv, error) {
	id := uuid4(r)
	path := filepath.Join(chats, "session-"+start.UTC().Format("2006-01-02T15-04")+"-"+id[:8]+".jsonl")
	s, err := create(path, 0o644)
	if err != nil {
		return conv{}, err
	}
	g := &geminiS{w: w, r: r, s: s, c: &clock{t: start, r: r}, cwd: cwd}
	sum := sha256.Sum256([]byte(cwd))
	b := append(s.line, `{"sessionId":"`+id+`","projectHash":"`+hex.EncodeToString(sum[:])+`","startTime":`...)
	b = appendStamp(b, start)
	b = append(b, `,"lastUpdated":`...)
	b = appendStamp(b, start)
	s.line = append(b, `,"kind":"main"}`...)
	s.emit()
	b = append(s.line, `{"$set":{"messages":[{"id":"`+hexID(r, 32)+`","timestamp":`...)
	b = appendStamp(b, start)
	b = append(b, `,"type":"user","content":[{"text":`...)
	b = appendStr(b, "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is "+
		start.Format("Monday, January 2, 2006")+".\nMy operating system is: linux\n- **Workspace Directories:**\n  - "+cwd+"\n</session_context>")
	b = append(b, `}]}],"lastUpdated":`...)
	b = appendStamp(b, start)
	s.line = append(b, `}}`...)
	s.emit()
	first, turns := "", 0
	for turns == 0 || int(s.n) < size {
		prompt := w.prompt(r, pick(ms, "prompt", turns == 0))
		if first == "" {
			first = prompt
		}
		g.turn(prompt, max(300, size/20), pick(ms, "reply", turns == 0), pick(ms, "tool", turns == 0))
		if turns == 0 && r.IntN(10) > 0 {
			b = append(s.line, `{"$set":{"summary":`...)
			b = appendStr(b, w.reply(r, "", 4+r.IntN(5)))
			s.line = append(b, `,"memoryScratchpad":{"version":1}}}`...)
			s.emit()
		}
		turns++
	}
	if err := s.close(g.c.t); err != nil {
		return conv{}, err
	}
	return conv{tool: "gemini", version: geminiVersion, id: id, cwd: cwd, home: home, start: start, end: g.c.t, title: first,
		turns: turns, bytes: s.n, path: path, markers: ms}, nil
}

// updated writes the $set of lastUpdated that follows every message.
func (g *geminiS) updated() {
	b := append(g.s.line, `{"$set":{"lastUpdated":`...)
	b = appendStamp(b, g.c.t)
	g.s.line = append(b, `}}`...)
	g.s.emit()
}

func (g *geminiS) message(typ string) []byte {
	b := append(g.s.line, `{"id":"`+uuid4(g.r)+`","timestamp":`...)
	b = appendStamp(b, g.c.t)
	return append(b, `,"type":"`+typ+`","content":`...)
}

func (g *geminiS) tokens(b []byte) []byte {
	in := 9000 + g.r.IntN(60000)
	b = append(b, `,"tokens":{"input":`...)
	b = appendInt(b, int64(in))
	b = append(b, `,"output":40,"cached":0,"thoughts":0,"tool":0,"total":`...)
	b = appendInt(b, int64(in+40))
	return append(b, '}')
}

func (g *geminiS) turn(prompt string, mean int, replyMarker, toolMarker string) {
	r := g.r
	g.c.pause()
	b := g.message("user")
	b = append(b, `[{"text":`...)
	b = appendStr(b, prompt)
	g.s.line = append(b, `}]}`...)
	g.s.emit()
	g.updated()
	for k := range calls(r, toolMarker) {
		g.toolCall(int(r.ExpFloat64()*float64(mean)), toolMarker)
		if k == 0 {
			toolMarker = ""
		}
	}
	g.c.step()
	b = g.message("gemini")
	b = appendStr(b, g.w.reply(r, replyMarker, 15+r.IntN(120)))
	b = append(b, `,"thoughts":[]`...)
	b = g.tokens(b)
	g.s.line = append(b, `,"model":"`+geminiModel+`"}`...)
	g.s.emit()
	g.updated()
}

// toolCall writes a message holding one shell call with about n bytes of
// output.
func (g *geminiS) toolCall(n int, marker string) {
	r := g.r
	at := g.c.step()
	cmd := g.w.command(r)
	call := "run_shell_command_" + string(appendInt(nil, at.UnixMilli())) + "_0"
	var out []byte
	out = append(out, "Output: "...)
	out = g.w.output(out, r, n, marker)
	out = append(out, `\nProcess Group PGID: `...)
	out = appendInt(out, int64(1000+r.IntN(60000)))
	b := g.message("gemini")
	b = append(b, `"","toolCalls":[{"id":"`+call+`","name":"run_shell_command","args":{"command":`...)
	b = appendStr(b, cmd)
	b = append(b, `},"result":[{"functionResponse":{"id":"`+call+`","name":"run_shell_command","response":{"output":"`...)
	b = append(b, out...)
	b = append(b, `"}}}],"status":"success","timestamp":`...)
	b = appendStamp(b, at)
	b = append(b, `,"resultDisplay":"`...)
	b = append(b, out...)
	b = append(b, `","description":`...)
	b = appendStr(b, cmd)
	g.s.line = append(b, `,"displayName":"Shell","renderOutputAsMarkdown":false}],"thoughts":[],"model":"`+geminiModel+`"}`...)
	g.s.emit()
	g.updated()
}

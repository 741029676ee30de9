package copilot

import (
	"fmt"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Copilot keeps a session in a folder named by its ID, whatever its
// directory, and names the directory in workspace.yaml's cwd, where a
// resume runs (Copilot changes to it), and in the log: the "cwd" of
// session.start's and each session.resume's context, and of the hook
// payloads it logs (measured on 1.0.102). So a move on one machine leaves
// the folder where it is and rewrites those fields in place. The text the
// model was sent ("Current working directory: …" in the system message) is
// the record of what was said and keeps the old path, as for Claude. A
// folder copied into another home, with only events.jsonl and
// workspace.yaml, resumes there (measured); the SQLite index beside the
// folders (session-store.db) is not needed, and fleetcom does not write it.

// bundled reports whether a file of a session folder is one a bundle
// carries.
func bundled(name string) bool { return name == "events.jsonl" || name == "workspace.yaml" }

// editFor is how a file of the folder is rewritten for a move from
// from to dir, or nil when it goes as it is.
func editFor(rel, from, dir string) func([]byte) []byte {
	switch rel {
	case "events.jsonl":
		return func(d []byte) []byte {
			return harness.RewriteLines(d, func(l []byte) []byte { return harness.RewriteField(l, "cwd", from, dir) })
		}
	case "workspace.yaml":
		return func(d []byte) []byte { return yamlSet(d, "cwd", from, dir) }
	}
	return nil
}

// Pack implements Mover: the log and workspace.yaml.
func (copilot) Pack(home, cwd, id string) ([]harness.File, error) {
	s, ok := sessionOf(home, cwd, id)
	if !ok {
		return nil, harness.Refuse(harness.ErrNoConversation, "no copilot session %s for %s", id, cwd)
	}
	var out []harness.File
	for _, name := range []string{"events.jsonl", "workspace.yaml"} {
		data, err := safe.ReadFile(filepath.Join(s.dir, name), harness.MaxConversationFile, safe.NoFollow)
		if err != nil {
			return nil, err
		}
		out = append(out, harness.File{Name: name, Mode: 0o600, Data: data})
	}
	return out, nil
}

// Place implements Mover: the session folder, its directory fields
// rewritten.
func (copilot) Place(home, dir, id, from string, files []harness.File) (harness.Placement, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Placement{}, err
	}
	if _, ok := yamlQuote(dir); !ok {
		return harness.Placement{}, fmt.Errorf("copilot cannot keep the directory %q in workspace.yaml", dir)
	}
	if s, ok := find(home, id); ok && s.cwd != "" && !s.belongs(dir) {
		return harness.Placement{}, fmt.Errorf("copilot session %s is on this machine already, for %s: 'fleetcom move' moves it", id, s.cwd)
	}
	p := harness.Placement{Path: filepath.Join(sessionsDir(home), id), Dir: true}
	seen := map[string]bool{}
	for _, f := range files {
		if !bundled(f.Name) || seen[f.Name] {
			return harness.Placement{}, fmt.Errorf("a copilot session holds no file %q", f.Name)
		}
		seen[f.Name] = true
		data := f.Data
		if from != dir {
			data = editFor(f.Name, from, dir)(data)
		}
		p.Files = append(p.Files, harness.File{Name: f.Name, Mode: 0o600, Data: data})
	}
	if !seen["events.jsonl"] || !seen["workspace.yaml"] {
		return harness.Placement{}, fmt.Errorf("a copilot session needs its events.jsonl and workspace.yaml")
	}
	return p, nil
}

// Carry implements Mover: the folder stays where it is, its directory
// fields rewritten in place, the directory as the session recorded it too
// when that is another name of from (a path through a symlink).
func (copilot) Carry(home, from, dir, id string) (harness.Carry, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Carry{}, err
	}
	s, ok := sessionOf(home, from, id)
	if !ok {
		return harness.Carry{}, harness.Refuse(harness.ErrNoConversation, "no copilot session %s for %s", id, from)
	}
	if _, ok := yamlQuote(dir); !ok {
		return harness.Carry{}, fmt.Errorf("copilot cannot keep the directory %q in workspace.yaml", dir)
	}
	recorded := s.cwd
	return harness.Carry{Parts: []harness.Part{{From: s.dir, To: s.dir, Dir: true, Edit: func(rel string) func([]byte) []byte {
		a := editFor(rel, from, dir)
		if a == nil || recorded == from {
			return a
		}
		b := editFor(rel, recorded, dir)
		return func(d []byte) []byte { return b(a(d)) }
	}}}}, nil
}

// Locate implements Mover; with no cwd, the session's folder whatever its
// directory.
func (copilot) Locate(home, cwd, id string) (harness.Placement, bool) {
	if cwd == "" {
		dir, ok := sessionDir(home, id)
		return harness.Placement{Path: dir, Dir: true}, ok
	}
	s, ok := sessionOf(home, cwd, id)
	return harness.Placement{Path: s.dir, Dir: true}, ok
}

// DirFields implements Mover.
func (copilot) DirFields() []string {
	return []string{"workspace.yaml cwd", `events.jsonl "cwd" (session.start, session.resume, hook payloads)`}
}

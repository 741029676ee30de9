package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// Export returns the bundle of the conversation ref names (an ID or a
// prefix, of one tool when tool is set), found as resume finds it from dir.
func (c *Catalog) Export(tool, ref, dir string) (Bundle, error) {
	p, err := c.Resolve(Query{Tool: tool, Ref: ref, Dir: dir})
	if err != nil {
		return Bundle{}, err
	}
	m, ok := p.Agent.Behaviour.(harness.Mover)
	if !ok {
		return Bundle{}, cannot(p.Agent, "export", p.Entry.ID)
	}
	e := p.Entry
	home := c.entryHome(p.Agent, e)
	files, err := m.Pack(home, e.Cwd, e.ID)
	if errors.Is(err, safe.ErrTooLarge) {
		return Bundle{}, &Error{Kind: Invalid, Msg: fmt.Sprintf("cannot export %s conversation %s: %v: a bundle carries files of up to %d MiB",
			e.Tool, e.ID, err, harness.MaxConversationFile>>20), Next: "copy the conversation's files by hand"}
	}
	if err != nil {
		return Bundle{}, notFound(listHint, "cannot export %s conversation %s: %v", e.Tool, e.ID, err)
	}
	b := bundleOf(e, files)
	if at := harness.LastActive(p.Agent, home, e.Cwd, e.ID); !at.IsZero() {
		b.Active = at.UTC()
	}
	return b, nil
}

// cannot refuses op ("export", "import", "move") for an agent that is no
// Mover: with its reason and the agent's own way, when it says them.
func cannot(a harness.Agent, op, id string) error {
	done := map[string]string{"export": "exported", "import": "imported", "move": "moved"}[op]
	why, hint := a.Refusal(op, id)
	if why == "" {
		return invalid("%s conversations cannot be %s", a.Name, done)
	}
	return &Error{Kind: Invalid, Msg: fmt.Sprintf("%s conversations cannot be %s: %s", a.Name, done, why), Next: hint}
}

// entryHome is the home an entry's files are in: the record's, else this
// environment's.
func (c *Catalog) entryHome(a harness.Agent, e Entry) string {
	if e.Home != "" {
		return e.Home
	}
	return c.Home(a)
}

// Import files a bundle's conversation in this environment's home of its
// agent, for the physical directory dir, and records it. The same bundle
// twice is a no-op; a different conversation with the same ID is never
// overwritten, nor is a second copy made beside one already there; and
// nothing is left behind unless every check passed.
func (c *Catalog) Import(b Bundle, a harness.Agent, dir string) (store.Record, bool, error) {
	m := a.Behaviour.(harness.Mover)
	home := c.Home(a)
	place, err := m.Place(home, dir, b.ID, b.Cwd, b.files())
	if err != nil {
		return store.Record{}, false, invalid("cannot import %s conversation %s: %v", b.Tool, b.ID, err)
	}
	if old, ok := m.Locate(home, "", b.ID); ok && old.Path != place.Path {
		return store.Record{}, false, notFound("run 'fleetcom move' to move it, or 'fleetcom export' it from there",
			"%s conversation %s is already in %s: importing it would make a second copy", b.Tool, b.ID, old.Path)
	}
	same, err := placed(place)
	if err != nil {
		return store.Record{}, false, notFound(listHint, "cannot import %s conversation %s: %v", b.Tool, b.ID, err)
	}
	var made []string
	unclaim := func() {}
	if !same {
		if unclaim, err = claim(place.Claims); err != nil {
			return store.Record{}, false, fmt.Errorf("import %s conversation %s: %w", b.Tool, b.ID, err)
		}
		if made, err = write(place); err != nil {
			unclaim()
			return store.Record{}, false, fmt.Errorf("import %s conversation %s: %w", b.Tool, b.ID, err)
		}
		if err := a.Adoptable(home, dir, b.ID); err != nil {
			unwrite(place, made)
			unclaim()
			return store.Record{}, false, fmt.Errorf("import %s conversation %s: the agent would not take it: %w", b.Tool, b.ID, err)
		}
	}
	// Its last activity is its last message, as the files placed date it;
	// else what the bundle says; the time of the import only when neither
	// can tell.
	active := harness.LastActive(a, home, dir, b.ID)
	if active.IsZero() {
		active = b.Active
	}
	if active.IsZero() {
		active = time.Now()
	}
	r, err := c.record(store.Record{Tool: b.Tool, ID: b.ID, Cwd: dir, Program: b.Tool, Source: "imported",
		Started: active, Ended: &active, Active: &active, Resumable: true, Home: home, Title: b.Title, Version: b.CLIVersion})
	if err != nil && !same {
		unwrite(place, made)
		unclaim()
		return store.Record{}, false, fmt.Errorf("import %s conversation %s: %w; nothing imported", b.Tool, b.ID, err)
	}
	return r, same, err
}

// record writes the record of an imported or moved conversation, filing it
// under its new directory when it was recorded elsewhere: one write, which
// leaves the old record as it was when it fails.
func (c *Catalog) record(r store.Record) (store.Record, error) {
	var err error
	if old, ok, _ := c.st.Get(r.Tool, r.ID); ok && old.Cwd != r.Cwd {
		r, err = c.st.Refile(r)
	} else {
		r, err = c.st.Put(r)
	}
	if err == nil {
		c.st.Remember(r.Tool, r.ID)
	}
	return r, err
}

// Moved is a conversation that moved: its record, what its agent says the
// user should know (Placement.Note), and what could not be done.
type Moved struct {
	store.Record
	Note string
	// Left lists files of the old copy left where they were: they changed
	// while the conversation moved, or could not be removed.
	Left []string
	// Unchecked says what fleetcom could not look at on this system before
	// the move (which processes have the files open): "" when nothing.
	Unchecked string
}

// Move files the conversation ref names under the physical directory dir,
// on this machine (see move).
func (c *Catalog) Move(tool, ref, from, dir string, keep bool) (Moved, error) {
	p, err := c.Resolve(Query{Tool: tool, Ref: ref, Dir: from})
	if err != nil {
		return Moved{}, err
	}
	return c.move(p.Agent, p.Entry, dir, keep)
}

// MoveDir moves every conversation of directory from (records and those
// found in the agents' stores) to dir, for a renamed project.
func (c *Catalog) MoveDir(from, dir string, keep bool) ([]Moved, []error) {
	entries, _ := c.Dir(from, "", WithFound)
	var out []Moved
	var errs []error
	for _, e := range entries {
		if !e.Resumable {
			continue
		}
		a, _ := agents.Named(e.Tool)
		r, err := c.move(a, e, dir, keep)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	return out, errs
}

// move takes a conversation to dir: refused while a process has it open;
// every part carried whole (harness.Carry); checked with the agent's own
// rules in its new place; recorded there; and only then is the old copy
// deleted, of it only what was copied and is unchanged. Until the record is
// written, a failure undoes everything.
func (c *Catalog) move(a harness.Agent, e Entry, dir string, keep bool) (Moved, error) {
	m, ok := a.Behaviour.(harness.Mover)
	if !ok {
		return Moved{}, cannot(a, "move", e.ID)
	}
	if e.Cwd == dir {
		return Moved{}, invalid("%s conversation %s is in %s already", e.Tool, e.ID, dir)
	}
	home := c.entryHome(a, e)
	cr, err := m.Carry(home, e.Cwd, dir, e.ID)
	if errors.Is(err, harness.ErrNoConversation) {
		return Moved{}, notFound(listHint, "%s conversation %s is not in %s", e.Tool, e.ID, home)
	}
	if err != nil {
		return Moved{}, fmt.Errorf("move %s conversation %s: %w", e.Tool, e.ID, err)
	}
	var from []string
	for _, p := range cr.Parts {
		if keep && p.From == p.To {
			// An agent that files a conversation by its ID alone (Copilot)
			// has one copy of it, whatever its directory.
			return Moved{}, invalid("%s keeps one copy of conversation %s, whatever its directory: --keep cannot leave one behind", e.Tool, e.ID)
		}
		from = append(from, p.From)
		if p.To != p.From && exists(p.To) {
			return Moved{}, notFound("", "cannot move %s conversation %s: %s holds one already", e.Tool, e.ID, p.To)
		}
	}
	held, unchecked := holders(a, home, e.ID, e.Cwd, from)
	if len(held) > 0 {
		return Moved{}, heldError(e, "move", held)
	}
	if err := writtenLately(a, e, from); err != nil {
		return Moved{}, err
	}
	unclaim, err := claim(cr.Claims)
	if err != nil {
		return Moved{}, fmt.Errorf("move %s conversation %s: %w; nothing moved", e.Tool, e.ID, err)
	}
	var done []*carried
	undo := func() {
		for _, d := range slices.Backward(done) {
			d.undo()
		}
		unclaim()
	}
	for _, p := range cr.Parts {
		d, err := carryPart(p, keep)
		if err != nil {
			undo()
			return Moved{}, fmt.Errorf("move %s conversation %s: %w; nothing moved", e.Tool, e.ID, err)
		}
		done = append(done, d)
	}
	if err := a.Adoptable(home, dir, e.ID); err != nil {
		undo()
		return Moved{}, fmt.Errorf("move %s conversation %s: the agent would not take the moved copy, which is undone: %w", e.Tool, e.ID, err)
	}
	r := e.Record
	r.Cwd, r.Home, r.Source, r.Resumable = dir, home, "moved", true
	if r.Program == "" {
		r.Program = a.Name
	}
	if at := harness.LastActive(a, home, dir, e.ID); !at.IsZero() {
		r.Active = &at
	}
	r, err = c.record(r)
	if err != nil {
		undo()
		return Moved{}, fmt.Errorf("move %s conversation %s: %w; the move is undone", e.Tool, e.ID, err)
	}
	out := Moved{Record: r, Note: cr.Note, Unchecked: unchecked}
	for _, d := range done {
		if d.finish != nil {
			out.Left = append(out.Left, d.finish()...)
		}
		if d.part.From != d.part.To && !keep {
			os.Remove(filepath.Dir(d.part.From)) // the old directory's folder, when nothing else is left in it
		}
	}
	return out, nil
}

// placed reports whether a placement is there already, byte for byte; one
// that is there with other contents is an error.
func placed(p harness.Placement) (bool, error) {
	if !exists(p.Path) {
		return false, nil
	}
	for _, f := range p.Files {
		path := p.Path
		if p.Dir {
			path = filepath.Join(p.Path, f.Name)
		}
		got, err := safe.ReadFile(path, int64(len(f.Data))+1, safe.NoFollow)
		if err != nil || !bytes.Equal(got, f.Data) {
			return false, fmt.Errorf("a different conversation with the same id is already at %s: not overwriting it", p.Path)
		}
	}
	return true, nil
}

// write puts a placement on disk atomically: a file through a temporary
// file and a rename, a directory written whole beside its place and
// renamed into it, so a failure (a full or read-only disk) leaves nothing
// half written. It returns the folders it made on the way, for unwrite.
func write(p harness.Placement) (made []string, err error) {
	parent := filepath.Dir(p.Path)
	if made, err = mkdirs(parent); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unmake(made)
		}
	}()
	if !p.Dir {
		return made, safe.WriteFile(p.Path, p.Files[0].Data, p.Files[0].Mode)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(p.Path)+".tmp-")
	if err != nil {
		return made, err
	}
	for _, f := range p.Files {
		if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, f.Mode|0o600); err != nil {
			os.RemoveAll(tmp)
			return made, err
		}
	}
	os.Chmod(tmp, 0o755)
	if err := os.Rename(tmp, p.Path); err != nil {
		os.RemoveAll(tmp)
		return made, err
	}
	return made, nil
}

// unwrite removes what write put on disk: the placement, which it made
// whole, and the folders it made for it.
func unwrite(p harness.Placement, made []string) {
	if p.Path == "" {
		return
	}
	if p.Dir {
		os.RemoveAll(p.Path)
	} else {
		os.Remove(p.Path)
	}
	unmake(made)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

package gemini

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Moving a Gemini conversation (measured on 0.61.0): its session file goes
// into the chats folder of the new directory's slug, with its first line's
// projectHash (the SHA-256 of the directory) rewritten; `gemini --resume
// <id>` there continues it with context, and Gemini sends the model a
// session context of the new directory (the one in the file is the record
// of what was said, and stays). A directory Gemini never saw has no slug:
// a folder it finds is claimed the way Gemini claims one, by a
// .project_root naming the directory in tmp/<slug>/ and history/<slug>/,
// made exclusively; Gemini then adds the projects.json entry itself on its
// next start there. fleetcom never writes projects.json. Beside the session
// file a conversation may have chats/<id>/ (its subagents' sessions),
// <id>/ (plans, trackers, tasks), tool-outputs/session-<id>/ and
// logs/session-<id>.jsonl, as Gemini's own delete removes them: a move
// carries each whole. The two-line stub a resume in a later minute leaves
// is not carried: beside the conversation it would have Gemini's session
// cleanup delete both.

// slugify is Gemini's slug of a directory's base name.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true // any other character separates, as in Gemini
	}
	if b.Len() == 0 {
		return "project"
	}
	return b.String()
}

// newSlug picks a slug for a directory Gemini has none for: its base
// name's, then -1, -2…, skipping any projects.json gives another directory
// and any folder there is already (Gemini would claim an unmarked one; a
// free one is as good and touches nothing).
func newSlug(home, dir string) (string, error) {
	base := slugify(filepath.Base(dir))
	taken := map[string]bool{}
	for _, s := range projects(home) {
		taken[s] = true
	}
	for i := 0; i < 1000; i++ {
		c := base
		if i > 0 {
			c += "-" + strconv.Itoa(i)
		}
		free := !taken[c]
		for _, b := range markerDirs(home) {
			if _, err := os.Lstat(filepath.Join(b, c)); err == nil {
				free = false
			}
		}
		if free {
			return c, nil
		}
	}
	return "", fmt.Errorf("no free gemini folder for %s", dir)
}

// placeFolder is the folder dir's conversations go in, and the claims that
// make it dir's when Gemini has none for it yet.
func placeFolder(home, dir string) (string, []harness.Claim, error) {
	if slug := slugOf(home, dir); slug != "" {
		return filepath.Join(home, "tmp", slug), nil, nil
	}
	slug, err := newSlug(home, dir)
	if err != nil {
		return "", nil, err
	}
	var claims []harness.Claim
	for _, b := range markerDirs(home) {
		claims = append(claims, harness.Claim{Path: filepath.Join(b, slug, ".project_root"), Data: []byte(dir)})
	}
	return filepath.Join(home, "tmp", slug), claims, nil
}

// rewrite rewrites what names the directory in a session file's
// lines: projectHash, and a subagent session's directories.
func rewrite(from, dir string) func([]byte) []byte {
	hf, ht := projectHash(from), projectHash(dir)
	return func(data []byte) []byte {
		return harness.RewriteLines(data, func(l []byte) []byte {
			l = harness.RewriteField(l, "projectHash", hf, ht)
			return rewriteInList(l, "directories", from, dir)
		})
	}
}

// rewriteInList replaces, in the list of strings that is key's value in a
// compact JSON line, each element that is exactly from with to.
func rewriteInList(line []byte, key, from, to string) []byte {
	open := []byte(`"` + key + `":[`)
	i := bytes.Index(line, open)
	if i < 0 {
		return line
	}
	start := i + len(open)
	end := start
	for end < len(line) && line[end] != ']' {
		if line[end] == '"' { // skip a string, escapes and all
			for end++; end < len(line) && line[end] != '"'; end++ {
				if line[end] == '\\' {
					end++
				}
			}
		}
		end++
	}
	if end >= len(line) {
		return line
	}
	old, new := harness.JSONString(from), harness.JSONString(to)
	var out []byte
	list := line[start:end]
	for len(list) > 0 {
		j := bytes.Index(list, old)
		if j < 0 {
			break
		}
		after := list[j+len(old):]
		if (j == 0 || list[j-1] == ',') && (len(after) == 0 || after[0] == ',') {
			out = append(append(out, list[:j]...), new...)
		} else {
			out = append(out, list[:j+len(old)]...)
		}
		list = after
	}
	if out == nil {
		return line
	}
	out = append(out, list...)
	return append(append(append([]byte{}, line[:start]...), out...), line[end:]...)
}

// Pack implements Mover: the session file that holds the conversation.
func (gemini) Pack(home, cwd, id string) ([]harness.File, error) {
	p, ok := sessionPath(home, cwd, id)
	if !ok {
		return nil, harness.Refuse(harness.ErrNoConversation, "no gemini session %s for %s", id, cwd)
	}
	data, err := safe.ReadFile(p, harness.MaxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []harness.File{{Name: filepath.Base(p), Mode: 0o644, Data: data}}, nil
}

// Place implements Mover: the session file, under its own name, in dir's
// chats folder, its projectHash rewritten.
func (gemini) Place(home, dir, id, from string, files []harness.File) (harness.Placement, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Placement{}, err
	}
	if len(files) != 1 {
		return harness.Placement{}, fmt.Errorf("a gemini conversation is one session file")
	}
	f := files[0]
	if short, ok := fileID(f.Name); !ok || short != id[:8] || !harness.SafeFileName(f.Name) {
		return harness.Placement{}, fmt.Errorf("a gemini session of %s holds no file %q", id, f.Name)
	}
	folder, claims, err := placeFolder(home, dir)
	if err != nil {
		return harness.Placement{}, err
	}
	data := f.Data
	if from != dir {
		data = rewrite(from, dir)(data)
	}
	return harness.Placement{Path: filepath.Join(folder, "chats", f.Name), Files: []harness.File{{Name: f.Name, Mode: 0o644, Data: data}},
		Claims: claims}, nil
}

// Carry implements Mover: the session file and whatever Gemini keeps of the
// session beside it, into dir's folder.
func (gemini) Carry(home, from, dir, id string) (harness.Carry, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Carry{}, err
	}
	p, ok := sessionPath(home, from, id)
	if !ok {
		return harness.Carry{}, harness.Refuse(harness.ErrNoConversation, "no gemini session %s for %s", id, from)
	}
	folder, claims, err := placeFolder(home, dir)
	if err != nil {
		return harness.Carry{}, err
	}
	old := filepath.Dir(filepath.Dir(p))
	rewrite := rewrite(from, dir)
	c := harness.Carry{Claims: claims, Parts: []harness.Part{{From: p, To: filepath.Join(folder, "chats", filepath.Base(p)),
		Edit: func(string) func([]byte) []byte { return rewrite }}}}
	for _, side := range []struct {
		rel string
		dir bool
	}{{filepath.Join("chats", id), true}, {id, true}, {filepath.Join("tool-outputs", "session-"+id), true},
		{filepath.Join("logs", "session-"+id+".jsonl"), false}} {
		fi, err := os.Lstat(filepath.Join(old, side.rel))
		if err != nil || fi.IsDir() != side.dir || !side.dir && !fi.Mode().IsRegular() {
			continue
		}
		part := harness.Part{From: filepath.Join(old, side.rel), To: filepath.Join(folder, side.rel), Dir: side.dir,
			Edit: func(string) func([]byte) []byte { return nil }}
		if side.rel == filepath.Join("chats", id) {
			part.Edit = func(rel string) func([]byte) []byte {
				if strings.HasSuffix(rel, ".jsonl") {
					return rewrite
				}
				return nil
			}
		}
		c.Parts = append(c.Parts, part)
	}
	return c, nil
}

// Locate implements Mover; with no cwd, the conversation in any folder.
func (gemini) Locate(home, cwd, id string) (harness.Placement, bool) {
	if cwd == "" {
		for _, chats := range allChats(home, id) {
			if p, _, ok := conversation(sessionFiles(chats, id)); ok {
				return harness.Placement{Path: p}, true
			}
		}
		return harness.Placement{}, false
	}
	p, ok := sessionPath(home, cwd, id)
	return harness.Placement{Path: p}, ok
}

// DirFields implements Mover.
func (gemini) DirFields() []string {
	return []string{"the folder its projects.json entry or .project_root gives the directory",
		"projectHash (the SHA-256 of the directory) of the session's first line", "directories of a subagent's session"}
}

package gemini

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Where Gemini keeps a directory's conversations (measured on 0.61.0, and
// read from its ProjectRegistry): tmp/<slug>/chats/ under its home, one
// file per session, session-<UTC YYYY-MM-DDTHH-MM>-<first 8 of the ID>.jsonl.
// The slug is the directory's base name, lower-cased, every run of other
// characters than a-z and 0-9 a '-' ("my proj" is my-proj), with -1, -2…
// when another directory has it. projects.json maps each directory to its
// slug ({"projects":{"/abs/dir":"slug"}}), and tmp/<slug>/.project_root and
// history/<slug>/.project_root name the directory that owns the slug: an
// entry whose marker names another directory is not believed, and a
// directory with no entry is found by its marker (Gemini then writes the
// entry itself). fleetcom reads projects.json and never writes it.

// validSlug is the shape Gemini allows a slug in projects.json.
func validSlug(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// projects reads projects.json: directory to slug. A file that is not
// there, too large or not in Gemini's shape reads as no entries, as Gemini
// itself reads it.
func projects(home string) map[string]string {
	data, err := safe.ReadFile(filepath.Join(home, "projects.json"), 4<<20, 0)
	if err != nil {
		return nil
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if json.Unmarshal(data, &reg) != nil {
		return nil
	}
	for _, slug := range reg.Projects {
		if !validSlug(slug) {
			return nil // Gemini resets a registry it cannot validate
		}
	}
	return reg.Projects
}

// markerDirs are the folders whose <slug>/.project_root names a
// slug's directory.
func markerDirs(home string) []string {
	return []string{filepath.Join(home, "tmp"), filepath.Join(home, "history")}
}

// marker reads <base>/<slug>/.project_root: the directory it names,
// and whether there is one.
func marker(base, slug string) (string, bool) {
	data, err := safe.ReadFile(filepath.Join(base, slug, ".project_root"), 4096, safe.NoFollow)
	if err != nil {
		return "", false
	}
	return filepath.Clean(strings.TrimSpace(string(data))), true
}

// owns reports whether no marker of slug names another directory than
// dir.
func owns(home, slug, dir string) bool {
	for _, base := range markerDirs(home) {
		if owner, ok := marker(base, slug); ok && owner != dir {
			return false
		}
	}
	return true
}

// slugOf is the slug of directory dir, "" when Gemini has none for it:
// its projects.json entry when the markers agree, else the slug whose
// marker names dir.
func slugOf(home, dir string) string {
	if slug := projects(home)[dir]; slug != "" && owns(home, slug, dir) {
		return slug
	}
	for _, base := range markerDirs(home) {
		entries, _ := os.ReadDir(base)
		for _, e := range entries {
			if !e.IsDir() || !validSlug(e.Name()) {
				continue
			}
			if owner, ok := marker(base, e.Name()); ok && owner == dir {
				return e.Name()
			}
		}
	}
	return ""
}

// dirOf is the directory a slug belongs to: its marker, else the
// projects.json entry naming it; "" when neither does, or the name is not
// an absolute clean path.
func dirOf(home, slug string) string {
	dir, ok := marker(filepath.Join(home, "tmp"), slug)
	if !ok {
		for d, s := range projects(home) {
			if s == slug {
				dir, ok = filepath.Clean(d), true
				break
			}
		}
	}
	if !ok || !filepath.IsAbs(dir) {
		return ""
	}
	return dir
}

// chatsDir is the chats folder of directory dir, "" when Gemini has
// none for it.
func chatsDir(home, dir string) string {
	slug := slugOf(home, dir)
	if slug == "" {
		return ""
	}
	return filepath.Join(home, "tmp", slug, "chats")
}

// fileID reads the short ID a session file's name ends in:
// session-<YYYY-MM-DDTHH-MM>-<8 characters>.jsonl.
func fileID(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "session-")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, ".jsonl")
	if !ok || len(rest) != len("2006-01-02T15-04")+1+8 || rest[16] != '-' || !validStamp(rest[:16]) {
		return "", false
	}
	return rest[17:], true
}

// validStamp checks the minute a session file is named by.
func validStamp(s string) bool {
	const shape = "dddd-dd-ddTdd-dd"
	for i := 0; i < len(shape); i++ {
		if shape[i] == 'd' && (s[i] < '0' || s[i] > '9') || shape[i] != 'd' && s[i] != shape[i] {
			return false
		}
	}
	return true
}

// sessionFiles lists the session files of chats whose names end in id's
// first eight characters and whose first line names id, in name order.
// The folder's names are read without a stat or an entry each: a project
// of 2,000 sessions made os.ReadDir most of a resume's fresh memory.
func sessionFiles(chats, id string) []string {
	if chats == "" || len(id) < 8 {
		return nil
	}
	d, err := os.Open(chats)
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []string
	for _, name := range names {
		if short, ok := fileID(name); !ok || short != id[:8] {
			continue
		}
		p := filepath.Join(chats, name)
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if h, ok := readHead(p); ok && h.SessionID == id {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// conversation is, of a session's files, the one that holds its
// conversation: messages to resume, the latest when (after a resume in the
// same minute as another) there are two. The stub a resume in a later
// minute leaves holds none.
func conversation(files []string) (string, session, bool) {
	best, bestChat, found := "", session{}, false
	for _, p := range files {
		c, ok := readConversation(p)
		if !ok || c.Side {
			continue
		}
		if !found || c.Active.After(bestChat.Active) {
			best, bestChat, found = p, c, true
		}
	}
	return best, bestChat, found
}

// sessionPath finds the file of conversation id: in cwd's folder, or,
// with no cwd, in the single folder holding it.
func sessionPath(home, cwd, id string) (string, bool) {
	p, _, ok := sessionOf(home, cwd, id)
	return p, ok
}

// sessionOf is sessionPath with what the file holds.
func sessionOf(home, cwd, id string) (string, session, bool) {
	if !spec.ID.Valid(id) {
		return "", session{}, false
	}
	if cwd != "" {
		return conversation(sessionFiles(chatsDir(home, cwd), id))
	}
	found, s := "", session{}
	for _, chats := range allChats(home, id) {
		if p, c, ok := conversation(sessionFiles(chats, id)); ok {
			if found != "" {
				return "", session{}, false
			}
			found, s = p, c
		}
	}
	return found, s, found != ""
}

// allChats lists every chats folder holding a file named for id.
func allChats(home, id string) []string {
	if len(id) < 8 {
		return nil
	}
	matches, _ := filepath.Glob(filepath.Join(home, "tmp", "*", "chats", "session-*-"+id[:8]+".jsonl"))
	var out []string
	for _, m := range matches {
		if d := filepath.Dir(m); len(out) == 0 || out[len(out)-1] != d {
			out = append(out, d)
		}
	}
	return out
}

// projectHash is the projectHash Gemini writes into a session: the SHA-256
// of the directory, in hex.
func projectHash(dir string) string {
	sum := safe.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:])
}

package harness

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
)

// Moving a conversation: to another directory on this machine, or in a
// bundle to another machine. The agents key conversations by the directory
// they ran in, so a moved conversation must be filed where the agent looks
// for that directory's conversations, with the fields that name the
// directory rewritten, and every other byte as it was. Each agent says how
// in its own file (Mover); catalog does the bundling, checking and writing.

// File is one file of a conversation, named the way its agent names it
// inside the conversation (never a path).
type File struct {
	Name string
	Mode fs.FileMode
	Data []byte
}

// Placement is where a conversation's files go: one file at Path, or, when
// Dir is set, a directory at Path holding Files by their names. Nothing in
// it comes from a bundle but the files' contents: the agent builds every
// path from its home, the directory and the ID.
type Placement struct {
	Path  string
	Dir   bool
	Files []File
	// Note is what the user should know once the files are in place: a
	// record of the old directory the agent keeps where fleetcom does not
	// write, say. Plain text, no control characters.
	Note string
	// Claims are files the agent needs before it looks for the directory's
	// conversations where the files go (Gemini's .project_root, which gives
	// a directory it never saw its folder).
	Claims []Claim
}

// Claim is a small file an agent's store needs for a conversation to be
// found in its new place: made only where there is none (exclusively, as
// the agent makes it), kept as it is where it holds Data already, and a
// refusal where it holds anything else (another directory owns that place).
// Undone with the rest of a failed move or import; kept after one that
// succeeded.
type Claim struct {
	Path string
	Data []byte
}

// Carry is how a move on this machine takes a conversation along: each
// part goes from From to To whole, a file or a folder with everything in
// it, and only the files Edit names are read and rewritten on the way.
// Nothing of the conversation is left out, so nothing is lost when the old
// place goes.
type Carry struct {
	Parts []Part
	// Note and Claims are as a Placement's.
	Note   string
	Claims []Claim
}

// Part is one file or folder of a conversation on a move.
type Part struct {
	From, To string
	Dir      bool
	// Edit returns how a file of the part is rewritten, given its path
	// inside the part (slash-separated; "" for a file part), or nil when it
	// goes as it is. A rewrite changes only the fields that name the
	// directory; it returns its input when there are none.
	Edit func(rel string) func(data []byte) []byte
}

// Mover is implemented by agents whose conversations can move.
type Mover interface {
	// Carry says how conversation id, filed for directory from, moves to
	// dir within home. It writes nothing.
	Carry(home, from, dir, id string) (Carry, error)
	// Pack returns the conversation's files as they are stored.
	Pack(home, cwd, id string) ([]File, error)
	// Place says where files of conversation id, made in directory from,
	// go in home for directory dir, with the fields naming the directory
	// rewritten. It writes nothing and refuses files it does not know.
	Place(home, dir, id, from string, files []File) (Placement, error)
	// Locate is where conversation id of cwd is stored now, as Place would
	// put it; with no cwd, where any copy of it is.
	Locate(home, cwd, id string) (Placement, bool)
	// DirFields names the fields the agent keeps a directory in, for
	// documentation and messages.
	DirFields() []string
}

// MaxConversationFile bounds one file of a conversation read for a move.
const MaxConversationFile = 256 << 20

// JSONString is s as a JSON string, as the agents write them (no HTML
// escaping).
func JSONString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// RewriteField replaces, in a JSON line as the agents write them (compact),
// every value of key that is exactly from with to, leaving every other
// byte as it was. A line the key does not hold, or holds with another
// value, is returned unchanged.
func RewriteField(line []byte, key, from, to string) []byte {
	for _, sep := range []string{":", ": "} {
		old := append([]byte(`"`+key+`"`+sep), JSONString(from)...)
		if bytes.Contains(line, old) {
			line = bytes.ReplaceAll(line, old, append([]byte(`"`+key+`"`+sep), JSONString(to)...))
		}
	}
	return line
}

// RewriteInString replaces, inside a JSON string value (escaped as JSON
// escapes it), a whole path from that stands after prefix with to: the path
// must end where the text does or at a line break, so a longer path that
// begins with it (from + "2") is left alone.
func RewriteInString(data []byte, prefix, from, to string) []byte {
	esc := func(s string) []byte { return bytes.Trim(JSONString(s), `"`) }
	old, new := append(esc(prefix), esc(from)...), append(esc(prefix), esc(to)...)
	var out []byte
	rest := data
	for {
		i := bytes.Index(rest, old)
		if i < 0 {
			break
		}
		after := rest[i+len(old):]
		if bytes.HasPrefix(after, []byte(`\n`)) || bytes.HasPrefix(after, []byte(`\r`)) || bytes.HasPrefix(after, []byte(`"`)) {
			out = append(append(out, rest[:i]...), new...)
		} else {
			out = append(out, rest[:i+len(old)]...)
		}
		rest = after
	}
	if out == nil {
		return data
	}
	return append(out, rest...)
}

// RewritePathPrefix replaces, in the values of key, the folder from (and
// only a whole folder of it: from followed by '/') with to.
func RewritePathPrefix(line []byte, key, from, to string) []byte {
	esc := func(s string) []byte { return bytes.TrimSuffix(JSONString(s+"/"), []byte(`"`)) }
	var out []byte
	for _, sep := range []string{":", ": "} {
		old := append([]byte(`"`+key+`"`+sep), esc(from)...)
		if bytes.Contains(line, old) {
			out = bytes.ReplaceAll(line, old, append([]byte(`"`+key+`"`+sep), esc(to)...))
			line = out
		}
	}
	return line
}

// RewriteLines applies f to each line of data, keeping the line breaks.
func RewriteLines(data []byte, f func(line []byte) []byte) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	var out bytes.Buffer
	out.Grow(len(data))
	for _, l := range lines {
		body := bytes.TrimSuffix(l, []byte("\n"))
		out.Write(f(body))
		out.Write(l[len(body):])
	}
	return out.Bytes()
}

// SafeFileName reports a file name an agent may accept from a bundle: one
// path element, nothing hidden or special.
func SafeFileName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\\x00") &&
		!strings.HasPrefix(name, ".") && len(name) <= 128
}

// Unmovable is implemented by agents whose conversations fleetcom cannot
// export, import or move (opencode's are rows of a database fleetcom never
// writes), to say why, and how the agent itself does it.
type Unmovable interface {
	// Unmovable returns why conversation id cannot be taken through op
	// ("export", "import" or "move"), and a hint naming the command that
	// does it the agent's own way.
	Unmovable(op, id string) (why, hint string)
}

// Refusal is why a's conversation id cannot be taken through op, and the
// hint that says what to do instead; "" for both when a says nothing.
func (a Agent) Refusal(op, id string) (why, hint string) {
	if u, ok := a.Behaviour.(Unmovable); ok {
		return u.Unmovable(op, id)
	}
	return "", ""
}

package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/fleetcom/fleetcom/internal/safe"
)

const (
	// notifyMarker is a line of the script, so any copy is recognised.
	notifyMarker = "# fleetcom codex notifier"
	// A config larger than this is not one fleetcom should second-guess.
	notifyMaxConfig = 4 << 20
	notifyNone      = "no notify configured: fleetcom's notifier is injected"
	notifyLeft      = ": notify left as configured, no thread capture through it"
)

// notifyPlan is what the shim does about Codex's notify setting for one run.
type notifyPlan struct {
	Inject bool     // add fleetcom's `-c notify=[...]` override
	Chain  []string // the user's notifier argv to run after capture (empty: none)
	Case   string   // one lowercase line for `fleetcom doctor`
}

// notifyChainEnv encodes a chain for FLEETCOM_NOTIFY_CHAIN, which the
// script splits on newlines.
func notifyChainEnv(chain []string) string { return strings.Join(chain, "\n") }

// utf8BOM may open a TOML file; Codex's reader skips it, and so does this.
var utf8BOM = []byte("\ufeff")

// notifyMaxDepth bounds how deep the config may nest before it is
// decoded: real configs nest three or four levels.
const notifyMaxDepth = 64

// planNotify decides, from <home>/config.toml, whether fleetcom's notifier
// can be injected without changing where the user's own notifications go.
func planNotify(home string) notifyPlan {
	p, _ := configPlan(home)
	return p
}

// configPlan reads <home>/config.toml once for everything a run needs
// from it: the notify plan, and whether the user has trusted fleetcom's
// hooks (hooks.go).
func configPlan(home string) (notifyPlan, bool) {
	if home == "" {
		return notifyRefuse("codex home is unknown"), false
	}
	data, err := safe.ReadFile(filepath.Join(home, "config.toml"), notifyMaxConfig, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return notifyPlan{Inject: true, Case: notifyNone}, false
	case errors.Is(err, safe.ErrTooLarge):
		return notifyRefuse("config.toml is larger than 4 mib"), false
	case err != nil:
		return notifyRefuse("config.toml is not a readable regular file"), false
	}
	var doc map[string]any
	p := notifyPlanFromConfig(data, &doc)
	return p, hooksTrusted(data, doc)
}

// notifyPlanFromConfig is the decision over the bytes of config.toml.
//
// The profile rule is the older builds' one: a top-level `profile = "name"`
// selects [profiles.name], whose notify wins. Codex 0.171 refuses to start when
// that key is present (it takes profiles only from --profile, which fleetcom
// never accepts), so following the old rule costs nothing there: codex exits
// with its own error whatever is injected.
// The decoded document is left in *decoded (nil when it does not decode).
func notifyPlanFromConfig(data []byte, decoded *map[string]any) notifyPlan {
	if safe.TOMLDepth(data, notifyMaxDepth) != nil {
		return notifyRefuse(fmt.Sprintf("config.toml nests deeper than %d levels", notifyMaxDepth))
	}
	var doc map[string]any
	defer func() { *decoded = doc }()
	if err := toml.Unmarshal(bytes.TrimPrefix(data, utf8BOM), &doc); err != nil {
		doc = nil
		return notifyRefuse("config.toml is not valid toml")
	}
	path, where := []string{"notify"}, "config.toml"
	if p, defined := doc["profile"]; defined {
		name, ok := p.(string)
		if !ok {
			return notifyRefuse("profile in config.toml is not a string")
		}
		profile, ok := notifyLookup(doc, "profiles", name).(map[string]any)
		if !ok {
			return notifyRefuse(fmt.Sprintf("selected profile %q is not a table in config.toml", name))
		}
		if _, ok := profile["notify"]; ok {
			path, where = []string{"profiles", name, "notify"}, fmt.Sprintf("profile %q", name)
		}
	}
	value := notifyLookup(doc, path...)
	if value == nil {
		return notifyPlan{Inject: true, Case: notifyNone}
	}
	chain, why := notifyChainValue(value)
	if why == "" && !notifyOneLine(data, path) {
		why = "not a one-line array"
	}
	switch {
	case why != "":
		return notifyRefuse(fmt.Sprintf("notify in %s is %s", where, why))
	case notifyIsFleetcom(chain[0]):
		return notifyPlan{Inject: true, Case: fmt.Sprintf("notify in %s is fleetcom's own "+
			"notifier: not chained again, fleetcom's notifier is injected", where)}
	}
	return notifyPlan{Inject: true, Chain: chain, Case: fmt.Sprintf(
		"notify in %s runs after fleetcom's notifier, which is injected", where)}
}

func notifyRefuse(why string) notifyPlan { return notifyPlan{Case: why + notifyLeft} }

func notifyLookup(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// notifyChainValue accepts only an argv the script can pass on exactly: the
// chain travels newline-joined through the environment, loses empty fields in
// the split and is started by exec, so empty elements, newlines, NULs and a
// program name exec would read as an option cannot make the trip.
func notifyChainValue(v any) ([]string, string) {
	arr, ok := v.([]any)
	switch {
	case !ok:
		return nil, "not an array"
	case len(arr) == 0:
		return nil, "an empty array"
	}
	chain := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		switch {
		case !ok:
			return nil, "an array with a non-string element"
		case s == "":
			return nil, "an array with an empty string"
		case strings.ContainsAny(s, "\n\x00"):
			return nil, "an array with a string holding a newline or nul"
		}
		chain = append(chain, s)
	}
	if strings.HasPrefix(chain[0], "-") {
		return nil, "an array whose program starts with '-'"
	}
	return chain, ""
}

// notifyIsFleetcom reports whether prog is a copy of fleetcom's notifier, which
// must not be chained: it would be handed the chain and run it again.
func notifyIsFleetcom(prog string) bool {
	if filepath.Base(prog) != notifyAsset {
		return false
	}
	path := prog
	if !strings.Contains(prog, "/") {
		p, err := exec.LookPath(prog)
		if err != nil {
			return false
		}
		path = p
	}
	if f, err := safe.Open(path, 0); err == nil {
		defer f.Close()
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		return slices.Contains(strings.Split(string(head[:n]), "\n"), notifyMarker)
	}
	// Gone or unreadable inside a <pid>-<nonce> directory: a namespace an
	// earlier shim left behind.
	pid, nonce, _ := strings.Cut(filepath.Base(filepath.Dir(path)), "-")
	notAlnum := func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }
	return pid != "" && strings.Trim(pid, "0123456789") == "" &&
		nonce != "" && strings.IndexFunc(nonce, notAlnum) < 0
}

// notifyOneLine reports whether the one assignment of path in src opens and
// closes its array on one source line. The decoder has already accepted src,
// so the scanner only has to find where each value starts and ends: it knows
// comments, the four string forms, dotted and quoted keys, table headers and
// inline tables, and anything it does not follow makes the answer no.
func notifyOneLine(src []byte, path []string) bool {
	s := &notifyScanner{src: strings.TrimPrefix(string(src), "\ufeff"), line: 1, target: path}
	return s.document() == nil && s.matches == 1 && s.oneLine
}

var errNotifyScan = errors.New("config.toml: not followed")

// notifyElement stands for "an element of this array" in a scanned path. Keys
// under an array of tables or inside an array belong to one element and are
// never the target; no decoded key can hold this byte, as keys are UTF-8.
const notifyElement = "\xff"

type notifyScanner struct {
	src     string
	pos     int
	line    int
	depth   int
	target  []string
	matches int
	oneLine bool
}

func (s *notifyScanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

// blank skips spaces and tabs; with lines set it also skips newlines and
// comments, as between statements and inside arrays and inline tables.
func (s *notifyScanner) blank(lines bool) {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\r':
		case c == '\n' && lines:
			s.line++
		case c == '#' && lines:
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
			continue
		default:
			return
		}
		s.pos++
	}
}

func (s *notifyScanner) document() error {
	var table []string
	for {
		s.blank(true)
		if s.pos >= len(s.src) {
			return nil
		}
		if s.peek() != '[' {
			if err := s.assign(table); err != nil {
				return err
			}
			continue
		}
		s.pos++
		arrayTable := s.peek() == '['
		if arrayTable {
			s.pos++
		}
		key, err := s.key()
		if err != nil || s.peek() != ']' {
			return errNotifyScan
		}
		s.pos++
		if arrayTable {
			if s.peek() != ']' {
				return errNotifyScan
			}
			s.pos++
			key = append(key, notifyElement)
		}
		table = key
	}
}

// assign reads `key = value` under prefix and notes whether it is the target.
func (s *notifyScanner) assign(prefix []string) error {
	key, err := s.key()
	if err != nil || s.peek() != '=' {
		return errNotifyScan
	}
	s.pos++
	s.blank(false)
	full := append(append([]string(nil), prefix...), key...)
	first, array := s.line, s.peek() == '['
	if err := s.value(full); err != nil {
		return err
	}
	if slices.Equal(full, s.target) {
		s.matches++
		s.oneLine = array && s.line == first
	}
	return nil
}

// key reads a possibly dotted key and the blanks around it.
func (s *notifyScanner) key() ([]string, error) {
	var parts []string
	for {
		s.blank(false)
		start := s.pos
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			if err := s.str(); err != nil {
				return nil, err
			}
			part, err := notifyUnquote(s.src[start:s.pos])
			if err != nil {
				return nil, err
			}
			parts = append(parts, part)
		default:
			for s.pos < len(s.src) && notifyBare(s.src[s.pos]) {
				s.pos++
			}
			if s.pos == start {
				return nil, errNotifyScan
			}
			parts = append(parts, s.src[start:s.pos])
		}
		s.blank(false)
		if s.peek() != '.' {
			return parts, nil
		}
		s.pos++
	}
}

// value skips one value; keys inside inline tables are assignments too, so a
// target written as `profiles = { x = { notify = [...] } }` is found.
func (s *notifyScanner) value(path []string) error {
	if s.depth++; s.depth > 200 {
		return errNotifyScan
	}
	defer func() { s.depth-- }()
	switch s.peek() {
	case '"', '\'':
		return s.str()
	case '[', '{':
		open := s.peek()
		s.pos++
		for {
			s.blank(true)
			if c := s.peek(); c == ']' && open == '[' || c == '}' && open == '{' {
				s.pos++
				return nil
			}
			var err error
			if open == '[' {
				err = s.value(append(path[:len(path):len(path)], notifyElement))
			} else {
				err = s.assign(path)
			}
			if err != nil {
				return err
			}
			s.blank(true)
			if s.peek() == ',' {
				s.pos++
			}
		}
	}
	// Numbers, booleans and date-times (which may hold a space) end at the
	// first delimiter.
	start := s.pos
	for s.pos < len(s.src) && !strings.ContainsRune(",]}#\n", rune(s.src[s.pos])) {
		s.pos++
	}
	if s.pos == start {
		return errNotifyScan
	}
	return nil
}

// str skips a basic, literal or multi-line string, counting its newlines.
func (s *notifyScanner) str() error {
	q := s.src[s.pos]
	triple := strings.Repeat(string(q), 3)
	multi := strings.HasPrefix(s.src[s.pos:], triple)
	if multi {
		s.pos += 3
	} else {
		s.pos++
	}
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\\' && q == '"':
			s.pos++
			if s.peek() == '\n' {
				s.line++
			}
		case c == '\n':
			if !multi {
				return errNotifyScan
			}
			s.line++
		case !multi && c == q:
			s.pos++
			return nil
		case multi && strings.HasPrefix(s.src[s.pos:], triple):
			// Up to two quotes may sit just before the closing three.
			n := 3
			for n < 5 && s.pos+n < len(s.src) && s.src[s.pos+n] == q {
				n++
			}
			s.pos += n
			return nil
		}
		s.pos++
	}
	return errNotifyScan
}

func notifyBare(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// notifyUnquote turns a quoted key into its name; escapes are left to the
// decoder so they mean exactly what they mean to it.
func notifyUnquote(tok string) (string, error) {
	if tok[0] == '\'' || !strings.Contains(tok, "\\") {
		return tok[1 : len(tok)-1], nil
	}
	var v map[string]any
	if err := toml.Unmarshal([]byte("k = "+tok), &v); err != nil {
		return "", errNotifyScan
	}
	k, ok := v["k"].(string)
	if !ok {
		return "", errNotifyScan
	}
	return k, nil
}

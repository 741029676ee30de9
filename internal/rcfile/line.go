package rcfile

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Reading one startup-file line: which file it sources, and which
// directories it puts in front of PATH. A word is expanded only as far as
// it is known without running anything (quotes, ~, $HOME, $ZDOTDIR,
// $XDG_CONFIG_HOME); a directory named any other way is not guessed at.

// stripComment drops a # comment that starts a word outside quotes.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == ';'):
			return s[:i]
		}
	}
	return s
}

// words splits a line of shell code into words and the operators between
// them (; & | && || ( ) as words of their own), quotes kept in the words.
// $( … ) stays inside its word.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	var quote byte
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			cur.WriteByte(c)
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
		case c == '\'' || c == '"':
			quote = c
			cur.WriteByte(c)
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			depth++
			cur.WriteString("$(")
			i++
		case c == ')' && depth > 0:
			depth--
			cur.WriteByte(c)
		case depth > 0:
			cur.WriteByte(c)
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case strings.IndexByte(";&|()", c) >= 0:
			flush()
			if i+1 < len(s) && (c == '&' || c == '|') && s[i+1] == c {
				out = append(out, string([]byte{c, c}))
				i++
			} else {
				out = append(out, string(c))
			}
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// commandStart reports whether the word after prev starts a command.
func commandStart(prev string) bool {
	switch prev {
	case "", ";", "&", "|", "&&", "||", "(", ")", "{", "then", "do", "else", "and", "or", "not", "begin":
		return true
	}
	return false
}

// expand resolves a word to a path, or ok false when that needs running
// something.
func expand(w string, h Home) (string, bool) {
	if strings.HasPrefix(w, "~/") || w == "~" {
		w = h.Dir + w[1:]
	}
	w = strings.NewReplacer(`"`, "", `'`, "").Replace(w)
	for _, v := range []struct{ name, val string }{
		{"HOME", h.Dir}, {"ZDOTDIR", h.ZDotDir}, {"XDG_CONFIG_HOME", h.Config}} {
		w = strings.ReplaceAll(w, "${"+v.name+"}", v.val)
		w = strings.ReplaceAll(w, "$"+v.name, v.val)
	}
	if w == "" || strings.ContainsAny(w, "$`*?[") || !filepath.IsAbs(w) {
		return "", false
	}
	return filepath.Clean(w), true
}

// sourced is the file a line sources (`. FILE`, `source FILE`), when it is
// named literally and exists.
func sourced(text, shell string, h Home) string {
	ws := words(stripComment(text))
	for i := 0; i+1 < len(ws); i++ {
		prev := ""
		if i > 0 {
			prev = ws[i-1]
		}
		if (ws[i] == "." || ws[i] == "source") && commandStart(prev) {
			if p, ok := expand(ws[i+1], h); ok {
				if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
					return p
				}
			}
		}
	}
	return ""
}

// prepends lists the directories a line puts in front of PATH (for a line
// that sets PATH without keeping the old value: every directory it names).
func prepends(text, shell string, h Home) []string {
	code := stripComment(text)
	if strings.Contains(code, "shellenv") && strings.Contains(code, "brew") {
		return brewDirs(code)
	}
	if strings.Contains(code, "path_helper") {
		return pathHelperDirs()
	}
	ws := words(code)
	var out []string
	add := func(vals []string, self ...string) {
		for _, v := range vals {
			for _, s := range self {
				if v == s {
					return
				}
			}
			if p, ok := expand(v, h); ok {
				out = append(out, p)
			}
		}
	}
	for i, w := range ws {
		switch {
		case strings.HasPrefix(w, "PATH="):
			val := strings.NewReplacer(`"`, "", `'`, "").Replace(w[len("PATH="):])
			add(strings.Split(val, ":"), "$PATH", "${PATH}")
		case shell == "zsh" && w == "path=" && i+1 < len(ws) && ws[i+1] == "(":
			var vals []string
			for _, v := range ws[i+2:] {
				if v == ")" {
					break
				}
				vals = append(vals, v)
			}
			add(vals, "$path", "${path[@]}", "$path[@]", "${path}", `"$path[@]"`, `"${path[@]}"`)
		case shell == "fish" && w == "set" && commandStart(prev(ws, i)):
			add(fishSet(ws[i+1:]))
		case shell == "fish" && w == "fish_add_path" && commandStart(prev(ws, i)):
			add(fishAddPath(ws[i+1:]))
		}
	}
	return out
}

func prev(ws []string, i int) string {
	if i == 0 {
		return ""
	}
	return ws[i-1]
}

// fishSet reads `set [flags] PATH|fish_user_paths values…`: the values put
// in front (all of them with --prepend or when the old value is not kept).
func fishSet(args []string) []string {
	prepend := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "--prepend" || (!strings.HasPrefix(args[0], "--") && strings.Contains(args[0], "p")) {
			prepend = true
		}
		args = args[1:]
	}
	if len(args) == 0 || (args[0] != "PATH" && args[0] != "fish_user_paths") {
		return nil
	}
	self := "$" + args[0]
	var vals []string
	for _, v := range args[1:] {
		if strings.IndexByte(";|&)", v[0]) >= 0 {
			break
		}
		if v == self && !prepend {
			return vals
		}
		vals = append(vals, v)
	}
	return vals
}

// fishAddPath reads `fish_add_path [flags] dirs…`: they go in front unless
// --append.
func fishAddPath(args []string) []string {
	var vals []string
	for _, v := range args {
		switch {
		case strings.IndexByte(";|&)", v[0]) >= 0:
			return vals
		case v == "--append" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "a")):
			return nil
		case strings.HasPrefix(v, "-"):
		default:
			vals = append(vals, v)
		}
	}
	return vals
}

// brewDirs are the directories `brew shellenv` puts in front: bin and
// sbin of the prefix the line names, else of every standard prefix.
func brewDirs(code string) []string {
	prefixes := []string{"/opt/homebrew", "/usr/local", "/home/linuxbrew/.linuxbrew"}
	for _, w := range strings.FieldsFunc(code, func(r rune) bool { return strings.ContainsRune(" \t\"'`$()", r) }) {
		if strings.HasSuffix(w, "/bin/brew") && filepath.IsAbs(w) {
			prefixes = []string{filepath.Dir(filepath.Dir(w))}
		}
	}
	var out []string
	for _, p := range prefixes {
		out = append(out, filepath.Join(p, "bin"), filepath.Join(p, "sbin"))
	}
	return out
}

// pathHelperDirs are the directories macOS's path_helper puts in front:
// /etc/paths, then each file of /etc/paths.d.
func pathHelperDirs() []string {
	files := []string{"/etc/paths"}
	more, _ := filepath.Glob("/etc/paths.d/*")
	var out []string
	for _, f := range append(files, more...) {
		data, err := safe.ReadFile(f, maxFile, 0)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l = strings.TrimSpace(l); filepath.IsAbs(l) {
				out = append(out, filepath.Clean(l))
			}
		}
	}
	return out
}

package picker

import (
	"bufio"
	"io"
	"os"
	"strings"
)

// fzf matches only what it shows (--nth counts the fields --with-nth
// leaves), so it cannot be handed a conversation's text to match beside
// the columns. Instead, each change of the query reloads the list through
// Options.TextCommand, which prints the same lines again with the rows
// whose text holds the query marked at their end (MarkText): "· said:"
// and the query. fzf's own matching, with the query it has, then keeps
// those rows, and the mark says why they are there. The command's argv
// and the file of lines travel in environment variables, as the preview's
// do; only fzf's own quoted {q} is in the template.

// textVar is the prefix of the environment variables holding the text
// command's argv; textFileVar names the file of fzf's input lines.
const (
	textVar     = "FLEETCOM_TEXT_"
	textFileVar = "FLEETCOM_TEXT_FILE"
)

// textMark begins what MarkText adds to a row whose text holds the query.
const textMark = "  · said: "

// textBinding is fzf's binding that reloads the list through a text
// command of n words whenever the query changes.
func textBinding(n int) string {
	return "--bind=change:reload:" + varWords(textVar, n) + `"$` + textFileVar + `" {q}`
}

// textEnv is the environment textBinding(len(argv)) reads, with file the
// file of fzf's input lines.
func textEnv(argv []string, file string) []string {
	return append(varEnv(textVar, argv), textFileVar+"="+file)
}

// writeTextFile writes fzf's input lines to a private temporary file for
// the text command to read; remove deletes it.
func writeTextFile(input []byte) (name string, remove func(), err error) {
	f, err := os.CreateTemp("", "fleetcom-pick-*.txt")
	if err != nil {
		return "", nil, err
	}
	name = f.Name()
	remove = func() { os.Remove(name) }
	if _, err = f.Write(input); err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err != nil {
		remove()
		return "", nil, err
	}
	return name, remove, nil
}

// MarkText is what a text command prints: the lines of fzf's input in
// file, each row whose key is in keys marked with query, the others as
// they are. Control characters of query are not printed.
func MarkText(w io.Writer, file string, keys []string, query string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	has := make(map[string]bool, len(keys))
	for _, k := range keys {
		has[k] = true
	}
	mark := textMark + strings.Join(strings.Fields(Printable(query)), " ")
	out := bufio.NewWriter(w)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line)
		if fields := strings.SplitN(line, "\t", 3); len(fields) == 3 && has[fields[1]] {
			out.WriteString(mark)
		}
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return out.Flush()
}

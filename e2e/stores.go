package e2e

import (
	"bufio"
	"encoding/json"
	"regexp"
	"strings"
)

// uuidRE matches a conversation ID as the CLIs print and file it.
var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

func forLines(b []byte, f func([]byte)) {
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			f(sc.Bytes())
		}
	}
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jsonString is s as a JSON string, as the CLIs write it in their files.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

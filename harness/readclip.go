package harness

// clipRead cuts a message's text for the index to at most n bytes (n <= 0:
// no limit), on a rune boundary. It is clipText of claude's reader, for the
// readers of other agents: an agent's files may go, the others' must still
// build.
func clipRead(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

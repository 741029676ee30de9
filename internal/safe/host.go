package safe

import "strings"

// Host reports whether h may be handed to ssh as a destination: a host
// name of letters, digits, '.', '_' and '-', not starting with '-', with
// an optional "user@" of the same characters; at most 255 bytes. Nothing
// else reaches ssh's command line, whose tokens ('%h', a ProxyCommand's
// shell) and URL form (ssh://host:port) would read more into it; a port
// or a jump host belongs in the user's ssh configuration.
func Host(h string) bool {
	if len(h) > 255 {
		return false
	}
	user, host, found := strings.Cut(h, "@")
	if !found {
		user, host = "", h
	}
	return hostPart(host) && (!found || hostPart(user))
}

// hostPart is one side of a destination: not empty, not an option.
func hostPart(s string) bool {
	return s != "" && s[0] != '-' && plainWord(s)
}

// plainWord reports s made of ASCII letters, digits and . _ - only.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

package safe

import "strings"

// Branch reports whether s is a branch name fleetcom may put on a command
// line: a conservative subset of git's rules for ref names
// (git-check-ref-format), read from an agent's store, where anything may
// have been written. Letters, digits and . _ - / only; components joined
// by single slashes, none empty, none starting with '.' or ending with
// ".lock"; no "..", no leading '-', no trailing '.'; not HEAD, which is
// what a detached checkout (or no repository at all) is recorded as. A
// name that passes is still quoted.
func Branch(s string) bool {
	if s == "" || len(s) > 200 || s == "HEAD" || s[0] == '-' || s[len(s)-1] == '.' ||
		strings.Contains(s, "..") {
		return false
	}
	for _, part := range strings.Split(s, "/") {
		if part == "" || part[0] == '.' || strings.HasSuffix(part, ".lock") || !plainWord(part) {
			return false
		}
	}
	return true
}

// CommitHash reports a full commit name as git writes it: 40 (SHA-1) or 64
// (SHA-256) lowercase hex digits.
func CommitHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

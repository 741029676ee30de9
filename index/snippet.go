package index

import (
	"strings"
	"unicode"
)

// snippetWords is how many words a snippet shows around its first match.
const snippetWords = 24

// snippet is one line of text around the first place where a term of the
// query occurs, its matched words between Mark and EndMark. Words are
// compared as the full-text engine compares them: runs of letters and
// digits, case folded; a phrase matches its words in a row, and with
// prefix the last term matches the start of a word.
func snippet(text string, terms []string, prefix bool) string {
	words := splitWords(text)
	if len(words) == 0 {
		return ""
	}
	type want struct {
		words  []string
		prefix bool
	}
	var wants []want
	for i, t := range terms {
		var ws []string
		for _, w := range splitWords(t) {
			ws = append(ws, t[w.start:w.end])
		}
		if len(ws) > 0 {
			wants = append(wants, want{ws, prefix && i == len(terms)-1})
		}
	}
	marked := make([]bool, len(words))
	first := -1
	for i := range words {
		for _, w := range wants {
			if i+len(w.words) > len(words) {
				continue
			}
			ok := true
			for k, ww := range w.words {
				got := text[words[i+k].start:words[i+k].end]
				last := k == len(w.words)-1
				if !(strings.EqualFold(got, ww) || last && w.prefix && hasFoldPrefix(got, ww)) {
					ok = false
					break
				}
			}
			if ok {
				for k := range w.words {
					marked[i+k] = true
				}
				if first < 0 {
					first = i
				}
			}
		}
	}
	if first < 0 {
		first = 0
	}
	from := max(0, first-snippetWords/3)
	to := min(len(words), from+snippetWords)
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := words[from].start
	for i := from; i < to; i++ {
		b.WriteString(text[pos:words[i].start])
		w := text[words[i].start:words[i].end]
		if marked[i] {
			b.WriteString(Mark + w + EndMark)
		} else {
			b.WriteString(w)
		}
		pos = words[i].end
	}
	if to < len(words) {
		b.WriteString("…")
	}
	return oneLine(b.String())
}

// span is where a word is in a text.
type span struct{ start, end int }

// splitWords finds the words of s: runs of letters, digits and marks.
func splitWords(s string) []span {
	var out []span
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, span{start, len(s)})
	}
	return out
}

// hasFoldPrefix is strings.HasPrefix ignoring case.
func hasFoldPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	return strings.EqualFold(s[:len(prefix)], prefix)
}

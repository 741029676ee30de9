package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// The text of every conversation comes from one vocabulary whose words are
// drawn with a Zipf-like law, as words are in real prose: a few hundred
// common words make most of it, and a long tail of rare words (made of
// syllables, so they look like identifiers and names) gives a search
// something to find in few places. Markers are words outside the
// vocabulary, planted only where the manifest says.

// common heads the vocabulary, most frequent first.
var common = strings.Fields(`the to a of and in is it that for this on with you be
not as can we are at from file if or but an by have test so run it's what code error
function go use will should add now when fix there all then one see need make change
line return value new type check do build just also my work was get set like into
here case out up try more let only list path which where time command name string
config data read write server client request response log output input user first last
call handle update old move package module import struct field method interface map
slice byte buffer stream channel lock wait start stop open close exit status flag option
default parse format print message warning hint table column row key index cache store
record session home directory folder shell script terminal window pane process signal
child parent thread worker queue job task retry timeout deadline context cancel done
because since while until before after again still already maybe probably actually
please thanks sure okay great good bad wrong right same other each every some any
number count size length width height limit max min total sum average median ratio
fast slow slower faster small large big tiny huge empty full clean dirty safe unsafe
local remote global private public internal external manual automatic simple complex
branch commit merge rebase diff patch review release version tag main master feature
docs readme comment note todo issue bug crash panic trace stack debug verbose quiet
unit integration benchmark fuzz coverage race vet lint format gofmt compile link binary
linux darwin windows kernel syscall pty tty fd pipe socket port host address network
json yaml toml csv sql sqlite query schema migration insert select delete update join
regexp match search find grep replace split trim join prefix suffix contains equal
why how does doesn't don't can't won't isn't aren't didn't there's that's let's i'm
look seems looks think know want got took made found saw said told asked tried works
instead without within between through across around above below under over again
`)

// syllables build the rare words of the vocabulary.
var syllables = strings.Fields(`ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo fu
ga ge gi go gu ha he hi ho hu ja je jo ka ke ki ko ku la le li lo lu ma me mi mo mu na ne
ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo wa we wi
wo ya yo za ze zi zo tra tre tri tro pla ple pli plo bra bre bri bro str sta ste sti sto
gra gre gri gro ark erk ilk orn ump ent ang ing ond est ax ex ix ox`)

// vocabSize is the number of distinct words the text is drawn from.
const vocabSize = 40000

// zipfS is the law's exponent: a little above 1, as in English text.
const zipfS = 1.07

// vocab is the word list with its cumulative weights.
type vocab struct {
	words []string
	cum   []float64
}

// newVocab makes the vocabulary: the common words, then rare ones made
// from syllables in an order fixed by seed.
func newVocab(seed uint64) *vocab {
	r := rand.New(rand.NewPCG(seed, 0x766f636162))
	seen := map[string]bool{}
	v := &vocab{}
	for _, w := range common {
		if !seen[w] {
			seen[w] = true
			v.words = append(v.words, w)
		}
	}
	for len(v.words) < vocabSize {
		n := 2 + r.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] && !isMarker(w) {
			seen[w] = true
			v.words = append(v.words, w)
		}
	}
	v.cum = make([]float64, len(v.words))
	total := 0.0
	for i := range v.words {
		total += 1 / math.Pow(float64(i+1), zipfS)
		v.cum[i] = total
	}
	return v
}

// word draws one word.
func (v *vocab) word(r *rand.Rand) string {
	u := r.Float64() * v.cum[len(v.cum)-1]
	i, _ := slices.BinarySearch(v.cum, u)
	return v.words[min(i, len(v.words)-1)]
}

// sentence appends n words, the first capitalised, ending in a full stop
// or a question mark.
func (v *vocab) sentence(b []byte, r *rand.Rand, n int) []byte {
	for i := range n {
		w := v.word(r)
		if i == 0 {
			b = append(b, strings.ToUpper(w[:1])...)
			b = append(b, w[1:]...)
			continue
		}
		b = append(b, ' ')
		b = append(b, w...)
	}
	if r.IntN(5) == 0 {
		return append(b, '?')
	}
	return append(b, '.')
}

// prose appends about n words of sentences.
func (v *vocab) prose(b []byte, r *rand.Rand, n int) []byte {
	for n > 0 {
		k := min(n, 4+r.IntN(14))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, ' ')
		}
		b = v.sentence(b, r, k)
		n -= k
	}
	return b
}

// markers are the words a benchmark searches for. None is in the
// vocabulary; the manifest lists each conversation holding one.
var markers = []string{"quetzalflux", "zymurgonic", "syzygetic", "xylophrax", "quokkavine",
	"jabberwock", "brobdingnag", "lilliputian", "snickersnee", "borogrove"}

func isMarker(w string) bool { return slices.Contains(markers, w) }

// pool is a long run of output-like text, JSON-escaped, that tool results
// are cut from: making megabytes a word at a time would be the slow part
// of writing gigabytes.
type pool struct {
	text  []byte // JSON string content: escaped, ASCII
	lines []int  // offsets where a line starts
}

// poolSize is how much text the pool holds; tool results start at any of
// its lines, so little of a store repeats at the same offsets. (A variable:
// the tests make do with less.)
var poolSize = 24 << 20

func newPool(v *vocab, seed uint64) *pool {
	r := rand.New(rand.NewPCG(seed, 0x706f6f6c))
	p := &pool{text: make([]byte, 0, poolSize+4096)}
	indent := 0
	for len(p.text) < poolSize {
		p.lines = append(p.lines, len(p.text))
		switch k := r.IntN(10); {
		case k < 4: // code
			p.text = append(p.text, strings.Repeat(`\t`, indent)...)
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, '_')
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, " := "...)
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, '(')
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, ", "...)
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, ')')
			indent = (indent + r.IntN(3) - 1 + 4) % 4
		case k < 7: // a log line
			p.text = append(p.text, "2026-0"...)
			p.text = append(p.text, byte('1'+r.IntN(9)))
			p.text = append(p.text, "-1"...)
			p.text = append(p.text, byte('0'+r.IntN(10)))
			p.text = append(p.text, " INFO "...)
			p.text = v.prose(p.text, r, 6+r.IntN(12))
		case k < 9: // a path and a count
			p.text = append(p.text, "./"...)
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, '/')
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, ".go:"...)
			p.text = appendInt(p.text, int64(1+r.IntN(900)))
			p.text = append(p.text, ": "...)
			p.text = v.prose(p.text, r, 3+r.IntN(8))
		default:
			p.text = append(p.text, `    \"`...)
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, `\": \"`...)
			p.text = append(p.text, v.word(r)...)
			p.text = append(p.text, `\",`...)
		}
		p.text = append(p.text, `\n`...)
	}
	return p
}

// cut appends about n bytes of the pool, whole lines from a random one.
func (p *pool) cut(b []byte, r *rand.Rand, n int) []byte {
	for n > 0 {
		i := p.lines[r.IntN(len(p.lines)-1)]
		end := min(i+n, len(p.text))
		// Never end between a backslash and its letter: the pool escapes
		// nothing but \t, \n and \", so a backslash always starts one.
		if p.text[end-1] == '\\' {
			end++
		}
		b = append(b, p.text[i:end]...)
		n -= end - i
	}
	return b
}

// appendStr appends s as a JSON string the way JavaScript's JSON.stringify
// and serde write it: quotes, backslashes and control characters escaped,
// everything else (non-ASCII, <, >, &) as it is.
func appendStr(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEsc(b, s)
	return append(b, '"')
}

// appendEsc is appendStr without the quotes.
func appendEsc(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n - 1
		}
	}
	return b
}

func appendInt(b []byte, n int64) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

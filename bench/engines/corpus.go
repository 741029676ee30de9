package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// corpus makes deterministic conversation texts: words drawn from a
// Zipf-distributed vocabulary of pseudo-words, with some code-like tokens.
type corpus struct {
	vocab []string
	zipf  *rand.Zipf
	r     *rand.Rand
}

func newCorpus(seed uint64) *corpus {
	r := rand.New(rand.NewPCG(seed, 7))
	syl := []string{"ka", "to", "ri", "men", "sul", "bra", "ex", "on", "ti", "lo", "qua", "ver", "in", "dex", "por", "ne", "za", "chi", "mo", "fle", "et", "com", "ser", "va"}
	seen := map[string]bool{}
	var vocab []string
	for len(vocab) < 30000 {
		n := 1 + int(math.Min(4, r.ExpFloat64()*1.3))
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		w := b.String()
		if !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	return &corpus{vocab: vocab, r: r, zipf: rand.NewZipf(r, 1.07, 2, uint64(len(vocab)-1))}
}

func (c *corpus) text(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if c.r.IntN(40) == 0 {
			fmt.Fprintf(&b, "func%d() ", c.r.IntN(5000))
			continue
		}
		b.WriteString(c.vocab[c.zipf.Uint64()])
		if c.r.IntN(12) == 0 {
			b.WriteString(". ")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

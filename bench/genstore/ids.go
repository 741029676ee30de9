package main

import (
	"math/rand/v2"
	"time"
)

const hexDigits = "0123456789abcdef"

// uuid4 draws a version 4 UUID.
func uuid4(r *rand.Rand) string {
	var b [16]byte
	fill(r, b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// uuid7 makes a version 7 UUID for time t: its first 48 bits are t in Unix
// milliseconds, as Codex's thread IDs and Grok's session IDs are.
func uuid7(r *rand.Rand, t time.Time) string {
	var b [16]byte
	fill(r, b[:])
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func fill(r *rand.Rand, b []byte) {
	for i := 0; i < len(b); i += 8 {
		x := r.Uint64()
		for j := 0; j < 8 && i+j < len(b); j++ {
			b[i+j] = byte(x >> (8 * j))
		}
	}
}

func formatUUID(b [16]byte) string {
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hexDigits[c>>4], hexDigits[c&15])
	}
	return string(out)
}

// hexID draws n hex digits.
func hexID(r *rand.Rand, n int) string {
	out := make([]byte, n)
	for i := range out {
		out[i] = hexDigits[r.IntN(16)]
	}
	return string(out)
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// opencodeID makes an opencode identifier: prefix, 12 hex digits of the time
// in milliseconds times 4096 plus a counter (bitwise inverted for the
// session IDs, which opencode sorts newest first), then 14 base-62
// characters: ses_dce26b133ffel8bmv69t5nNqZs.
func opencodeID(r *rand.Rand, prefix string, t time.Time, counter int, descending bool) string {
	v := uint64(t.UnixMilli())*0x1000 + uint64(counter&0xfff)
	if descending {
		v = ^v
	}
	out := make([]byte, 0, len(prefix)+26)
	out = append(out, prefix...)
	for i := 5; i >= 0; i-- {
		c := byte(v >> (8 * i))
		out = append(out, hexDigits[c>>4], hexDigits[c&15])
	}
	for range 14 {
		out = append(out, base62[r.IntN(62)])
	}
	return string(out)
}

// stamp formats t as the CLIs write times: RFC 3339 in UTC with
// milliseconds (JavaScript's toISOString).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// appendStamp appends stamp(t), quoted.
func appendStamp(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	return append(b, '"')
}

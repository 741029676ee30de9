package safe

import "math/rand/v2"

// UUIDLen is the length of a UUID in the 8-4-4-4-12 shape.
const UUIDLen = 36

// UUID reports whether s is lowercase hexadecimal in the 8-4-4-4-12 shape
// and nothing else: the grammar of every conversation ID the CLIs fleetcom
// supports today make.
func UUID(s string) bool {
	return len(s) == UUIDLen && UUIDPrefix(s, UUIDLen)
}

// UUIDPrefix reports whether s could begin a UUID: at least min characters,
// each in a place the full shape allows.
func UUIDPrefix(s string, min int) bool {
	if len(s) < min || len(s) > UUIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// NewUUID returns a random version 4 UUID in the canonical lowercase form.
//
// The bits come from math/rand/v2's global generator: ChaCha8, seeded by
// the runtime from the kernel's entropy. A pinned session ID only has to be
// unique, and this source needs no initialisation at start-up, where
// crypto/rand's would cost every shim invocation, accepted or not.
func NewUUID() string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := rand.Uint64()
		for j := 0; j < 8; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hexdig = "0123456789abcdef"
	var out [UUIDLen]byte
	o := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[o] = '-'
			o++
		}
		out[o], out[o+1] = hexdig[c>>4], hexdig[c&0xf]
		o += 2
	}
	return string(out[:])
}

// UUIDTime returns the Unix-millisecond timestamp of a version 7 UUID, and
// false for any other version.
func UUIDTime(id string) (int64, bool) {
	if !UUID(id) || id[14] != '7' {
		return 0, false
	}
	var ms int64
	for i := 0; i < 13; i++ {
		if i == 8 {
			continue
		}
		c := id[i]
		v := c - '0'
		if c >= 'a' {
			v = c - 'a' + 10
		}
		ms = ms<<4 | int64(v)
	}
	return ms, true
}

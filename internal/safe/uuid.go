package safe

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
)

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
// Its bits come from math/rand/v2's global generator (ChaCha8, seeded by the
// runtime from the kernel): a pinned session ID only has to be unique.
func NewUUID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [UUIDLen]byte
	hex.Encode(out[0:8], b[0:4])
	hex.Encode(out[9:13], b[4:6])
	hex.Encode(out[14:18], b[6:8])
	hex.Encode(out[19:23], b[8:10])
	hex.Encode(out[24:], b[10:])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

// UUIDTime returns the Unix-millisecond timestamp of a version 7 UUID, and
// false for any other version.
func UUIDTime(id string) (int64, bool) {
	if !UUID(id) || id[14] != '7' {
		return 0, false
	}
	ms, err := strconv.ParseInt(id[:8]+id[9:13], 16, 64)
	return ms, err == nil
}

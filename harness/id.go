package harness

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// idLen is the length of an ID in the 8-4-4-4-12 shape.
const idLen = 36

// ValidID reports whether s is a conversation ID fleetcom will handle: lowercase
// hexadecimal in the 8-4-4-4-12 shape and nothing else. It is the one validation
// boundary: every captured, scraped, stored or discovered ID passes through it
// before it can reach a command line or a path.
func ValidID(s string) bool {
	if len(s) != idLen {
		return false
	}
	for i := 0; i < idLen; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isLowerHex(c) {
				return false
			}
		}
	}
	return true
}

// CheckID returns an error naming the value when s is not a valid ID.
func CheckID(s string) error {
	if !ValidID(s) {
		return fmt.Errorf("invalid session id %q: want lowercase hex in the 8-4-4-4-12 shape", s)
	}
	return nil
}

// ValidPrefix reports whether s could begin a valid ID: at least min characters,
// each in the place the full shape allows.
func ValidPrefix(s string, min int) bool {
	if len(s) < min || len(s) > idLen {
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
			if !isLowerHex(c) {
				return false
			}
		}
	}
	return true
}

func isLowerHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f')
}

// NewID returns a random version 4 UUID in the canonical lowercase form.
// It is written here rather than taken from a UUID library because the shim's
// start-up cost matters and this is all fleetcom needs.
func NewID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate session id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [idLen]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:]), nil
}

// idTime returns the Unix-millisecond timestamp of a version 7 ID, and false for
// any other version.
func idTime(id string) (int64, bool) {
	if !ValidID(id) || id[14] != '7' {
		return 0, false
	}
	var ms int64
	for i := 0; i < 13; i++ {
		if i == 8 {
			continue
		}
		ms = ms<<4 | int64(hexVal(id[i]))
	}
	return ms, true
}

func hexVal(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}

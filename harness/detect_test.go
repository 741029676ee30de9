package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/safe"
)

const uid = harnesstest.UID

func TestValidID(t *testing.T) {
	cases := map[string]bool{
		uid:                                    true,
		"00000000-0000-0000-0000-000000000000": true,
		strings.ToUpper(uid):                   false,
		"0F8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e": false,
		"{" + uid + "}":                        false,
		"urn:uuid:" + uid:                      false,
		" " + uid:                              false,
		uid + " ":                              false,
		uid + "\n":                             false,
		uid + "0":                              false,
		uid[:35]:                               false,
		strings.ReplaceAll(uid, "-", ""):       false,
		"0f8b2c3e_4d5a-4b6c-8d7e-9f0a1b2c3d4e": false,
		"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4g": false,
		"0f8b2c3e-4d5a4-b6c-8d7e-9f0a1b2c3d4e": false,
		"":                                     false,
		"../../../../tmp/pwn":                  false,
		"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4\x00": false,
	}
	for in, want := range cases {
		if got := safe.UUID(in); got != want {
			t.Errorf("safe.UUID(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestIDTime(t *testing.T) {
	at := time.Date(2026, 11, 30, 6, 51, 52, 123e6, time.UTC)
	ms, ok := safe.UUIDTime(harnesstest.V7At(at))
	if !ok || ms != at.UnixMilli() {
		t.Fatalf("safe.UUIDTime(v7) = %d, %v; want %d", ms, ok, at.UnixMilli())
	}
	if _, ok := safe.UUIDTime(uid); ok {
		t.Fatal("idTime accepted a v4 ID")
	}
}

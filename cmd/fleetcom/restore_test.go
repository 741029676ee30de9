package main

import (
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.Local)
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{"90m", now.Add(-90 * time.Minute)},
		{"1h30m", now.Add(-90 * time.Minute)},
		{"3d", now.Add(-72 * time.Hour)},
		{"2w", now.Add(-14 * 24 * time.Hour)},
		{"2026-12-01", time.Date(2026, 12, 1, 0, 0, 0, 0, time.Local)},
		{"2026-12-01 09:30", time.Date(2026, 12, 1, 9, 30, 0, 0, time.Local)},
		{"2026-12-01T09:30:15", time.Date(2026, 12, 1, 9, 30, 15, 0, time.Local)},
		{"2026-12-01T09:30:00Z", time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)},
	} {
		got, err := parseSince(c.in, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"yesterday", "0d", "-1h", "1.5d", "5dw", "d", "2026-13-01", "12:00"} {
		if got, err := parseSince(bad, now); err == nil || exitCode(err) != exitUsage {
			t.Errorf("parseSince(%q) = %v, %v; want a usage error", bad, got, err)
		}
	}
}

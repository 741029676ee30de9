package config

import (
	"strings"
	"testing"
	"time"
)

func TestRestore(t *testing.T) {
	for doc, want := range map[string]Restore{
		"":                                    DefaultRestore,
		"[restore]\n":                         DefaultRestore,
		"[restore]\ngap = 0\n":                {Gap: 0, Jitter: 0.2, Alive: 10 * time.Second},
		"[restore]\ngap = 2.5\njitter = 0\n":  {Gap: 2500 * time.Millisecond, Jitter: 0, Alive: 10 * time.Second},
		"[restore]\njitter = 50\nalive = 3\n": {Gap: 5 * time.Second, Jitter: 0.5, Alive: 3 * time.Second},
	} {
		c, err := Load(write(t, doc))
		if err != nil || c.Restore() != want {
			t.Errorf("%q: %+v, %v; want %+v", doc, c.Restore(), err, want)
		}
	}
	for doc, msg := range map[string]string{
		"[restore]\ngap = -1\n":         "restore.gap must be a number of seconds",
		"[restore]\ngap = \"5s\"\n":     "restore.gap must be a number of seconds",
		"[restore]\ngap = nan\n":        "restore.gap must be a number of seconds",
		"[restore]\njitter = 0.2\n":     "restore.jitter must be a percentage",
		"[restore]\njitter = 101\n":     "restore.jitter must be a percentage",
		"[restore]\nalive = 0\n":        "restore.alive must be a number of seconds from 1",
		"[restore]\nwait = 1\n":         "unknown setting restore.wait",
		"restore = 1\n":                 "restore must be a table",
		"[restore]\n\n\nalive = 9999\n": "line 4",
	} {
		if _, err := Load(write(t, doc)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v; want an error saying %q", doc, err, msg)
		}
	}
}

package config

import (
	"fmt"
	"time"
)

// Restore is the [restore] table: how `fleetcom restore --exec` paces and
// checks the agents it starts again.
type Restore struct {
	// Gap is the pause between two starts, each drawn from Gap ± Jitter
	// of it: agents started together all refresh the login they share
	// together, and fail.
	Gap time.Duration
	// Jitter is the part of Gap a pause may be longer or shorter by, 0 to 1.
	Jitter float64
	// Alive is how long a start must stay up to count as done when its
	// agent is not seen ready before.
	Alive time.Duration
}

// DefaultRestore is [restore] when the config does not set it: 5 s ±20 %
// apart, and up 10 s.
var DefaultRestore = Restore{Gap: 5 * time.Second, Jitter: 0.2, Alive: 10 * time.Second}

// Bounds of [restore]'s settings, in seconds.
const (
	maxGap   = 3600
	maxAlive = 600
)

// Restore returns the [restore] settings, the defaults for what the config
// does not set.
func (c Config) Restore() Restore {
	if c.restore == nil {
		return DefaultRestore
	}
	return *c.restore
}

func (c *Config) restoreTable(t map[string]any) error {
	r := DefaultRestore
	for _, k := range sortedKeys(t) {
		v := t[k]
		switch k {
		case "gap":
			s, ok := seconds(v, 0, maxGap)
			if !ok {
				return refuse("restore", k, fmt.Errorf("restore.gap must be a number of seconds from 0 to %d", maxGap))
			}
			r.Gap = s
		case "jitter":
			n, ok := v.(int64)
			if !ok || n < 0 || n > 100 {
				return refuse("restore", k, fmt.Errorf("restore.jitter must be a percentage from 0 to 100"))
			}
			r.Jitter = float64(n) / 100
		case "alive":
			s, ok := seconds(v, 1, maxAlive)
			if !ok {
				return refuse("restore", k, fmt.Errorf("restore.alive must be a number of seconds from 1 to %d", maxAlive))
			}
			r.Alive = s
		default:
			return refuse("restore", k, fmt.Errorf("unknown setting restore.%s", k))
		}
	}
	c.restore = &r
	return nil
}

// seconds reads a whole or fractional number of seconds from lo to hi.
func seconds(v any, lo, hi float64) (time.Duration, bool) {
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return 0, false
	}
	if !(f >= lo && f <= hi) { // NaN fails too
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

package config

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Notify is the [notify] table. Notices are off unless one way is chosen.
type Notify struct {
	// Desktop: the desktop's own notifier (notify-send, osascript).
	Desktop bool
	// Terminal: "osc9", "osc777" or "bell", written to the run's
	// terminal; "" for none.
	Terminal string
	// Command is a program and its arguments that gets each notice as JSON
	// on its standard input.
	Command []string
	// After is the shortest turn whose end is told (default 60 s).
	After time.Duration
	// Every is the least time between two notices of one run (default 10 s).
	Every time.Duration
}

// Defaults of [notify]'s thresholds.
const (
	defaultAfter = 60 * time.Second
	defaultEvery = 10 * time.Second
	maxSeconds   = 7 * 24 * 3600
)

// On reports whether any way of telling is chosen.
func (n Notify) On() bool { return n.Desktop || n.Terminal != "" || len(n.Command) > 0 }

// Hooks is the user's choice of state hooks for tool ([tool] hooks): on,
// off, or unset (the agent's default).
func (c Config) Hooks(tool string) harness.HookPolicy { return c.hooks[tool] }

func (c *Config) notify(t map[string]any) error {
	c.Notify.After, c.Notify.Every = defaultAfter, defaultEvery
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "desktop":
			b, ok := v.(bool)
			if !ok {
				return errors.New("notify.desktop must be true or false")
			}
			c.Notify.Desktop = b
		case "terminal":
			s, ok := v.(string)
			switch {
			case !ok || (s != "osc9" && s != "osc777" && s != "bell" && s != "none"):
				return errors.New(`notify.terminal must be "osc9", "osc777", "bell" or "none"`)
			case s != "none":
				c.Notify.Terminal = s
			}
		case "command":
			argv, err := stringList(v)
			if err != nil || len(argv) == 0 || argv[0] == "" || strings.HasPrefix(argv[0], "-") {
				return errors.New("notify.command must be an array of strings: a program, then its arguments")
			}
			c.Notify.Command = argv
		case "after", "every":
			n, ok := v.(int64)
			if !ok || n < 0 || n > maxSeconds {
				return fmt.Errorf("notify.%s must be a number of seconds from 0 to %d", k, maxSeconds)
			}
			if k == "after" {
				c.Notify.After = time.Duration(n) * time.Second
			} else {
				c.Notify.Every = time.Duration(n) * time.Second
			}
		default:
			return fmt.Errorf("unknown setting notify.%s", k)
		}
	}
	return nil
}

func (c *Config) status(t map[string]any) error {
	for _, k := range sortedKeys(t) {
		switch v := t[k]; k {
		case "hosts":
			hosts, err := stringList(v)
			if err != nil {
				return errors.New("status.hosts must be an array of host names")
			}
			for _, h := range hosts {
				if !ValidHost(h) {
					return refuse("status", k, fmt.Errorf("status.hosts: %w", HostError(h)))
				}
			}
			c.Hosts = hosts
		default:
			return fmt.Errorf("unknown setting status.%s", k)
		}
	}
	return nil
}

// ErrHost is the error of a host name ssh must not be given.
var ErrHost = errors.New("not a host name")

// HostError says why h is refused, wrapping ErrHost.
func HostError(h string) error {
	return fmt.Errorf("%q is %w ssh is given: letters, digits, '.', '_' and '-', "+
		"with an optional user@ (a port, an option or a URL belongs in ~/.ssh/config)", h, ErrHost)
}

// ValidHost reports whether h can be handed to ssh as a destination: a
// host name of letters, digits, '.', '_' and '-', with an optional user@
// of the same (safe.Host).
func ValidHost(h string) bool { return safe.Host(h) }

// stringList reads an array of strings.
func stringList(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, errors.New("not an array")
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, errors.New("not a string")
		}
		out = append(out, s)
	}
	return out, nil
}

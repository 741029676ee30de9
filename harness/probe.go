package harness

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Some facts about an agent's binary can only be learned by running it when
// its files do not tell (installed.go): its version, and (for grok) whether
// it is the xAI CLI, which takes --session-id, or a community build of the
// same name that exits with "unknown option" when given it. Only `fleetcom
// doctor` runs a binary to learn them (Probe): a shim run starts the CLI the
// user typed and nothing else, so a user's wrapper named like the CLI runs
// once per command. What doctor learned is kept per file (path, inode, size
// and modification time), a failure as much as an answer, in a small cache
// the shim reads (Version).

const (
	// probeTimeout bounds one run of a binary to learn a fact.
	probeTimeout = 5 * time.Second
	// probeWaitDelay bounds the wait for a grandchild that inherited the
	// output pipe, once the binary itself is gone.
	probeWaitDelay = 200 * time.Millisecond
	// maxVersionOutput bounds what is kept of a probe's output: a binary
	// that goes on writing is stopped there.
	maxVersionOutput = 4 << 10
	// Facts, by name in the cache.
	versionFact = "version"
)

// ProbeFact returns fact name of the binary bin: from the cache in cacheDir
// ("" for none), else by running bin with args and reducing at most limit
// bytes of its output with read. Whatever the run gave (an answer, nothing,
// a timeout) is kept for this binary, so a binary that fails is asked once.
// Only a Prober calls it, for doctor (Probe).
func ProbeFact(bin, cacheDir, name string, args []string, limit int, read func(out []byte) string) string {
	key, ok := identity(bin)
	if !ok {
		return ""
	}
	if v, ok := cached(cacheDir, key, name); ok {
		return v
	}
	value := read(runCapped(bin, args, limit))
	remember(cacheDir, key, name, value)
	return value
}

// runCapped runs bin with args, its output going to a buffer that keeps limit
// bytes and stops the binary once it has them, and returns what was kept.
func runCapped(bin string, args []string, limit int) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = nil
	// The binary sees the user's environment, less fleetcom's own
	// variables: a probe is not a run, and must not look like one.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLEETCOM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.WaitDelay = probeWaitDelay
	out := &Capped{Limit: limit, Full: cancel}
	cmd.Stdout, cmd.Stderr = out, out // one writer: exec copies both on one goroutine
	_ = cmd.Run()
	return out.Bytes()
}

// CachedFact returns what doctor learned of fact name of the binary bin
// (ProbeFact), without running anything; false when it never asked this
// binary, as it is now.
func CachedFact(bin, cacheDir, name string) (string, bool) {
	key, ok := identity(bin)
	if !ok {
		return "", false
	}
	return cached(cacheDir, key, name)
}

// Capped is the output of a helper program fleetcom runs: it keeps the
// first Limit bytes written to it and calls Full (which stops the program)
// once it has them; it swallows the rest, so the writer is never blocked.
type Capped struct {
	Limit int
	Full  func()
	buf   []byte
}

// Bytes returns what was kept.
func (c *Capped) Bytes() []byte { return c.buf }

// Write implements io.Writer.
func (c *Capped) Write(p []byte) (int, error) {
	if room := c.Limit - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	if len(c.buf) >= c.Limit {
		c.Full()
	}
	return len(p), nil
}

// findVersion returns the first version number in a CLI's --version
// output: "2.1.332 (Claude Code)", "codex-cli 0.171.0", "grok 1.0.41
// (4220f3b224a6)". It matches what the regular expression
// \b\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?\b would (FuzzFindVersion holds it
// to that), without linking the regexp package and its Unicode tables
// into every shim start.
func findVersion(b []byte) string {
	for i := range b {
		if !isDigit(b[i]) || (i > 0 && isWordByte(b[i-1])) {
			continue
		}
		j, ok := i, true
		for part := range 3 {
			if part > 0 {
				if j >= len(b) || b[j] != '.' {
					ok = false
					break
				}
				j++
			}
			k := j
			for k < len(b) && isDigit(b[k]) {
				k++
			}
			ok = k > j
			if !ok {
				break
			}
			j = k
		}
		if !ok {
			continue
		}
		if j < len(b) && (b[j] == '-' || b[j] == '+') {
			k := j + 1
			for k < len(b) && (isWordByte(b[k]) && b[k] != '_' || b[k] == '.' || b[k] == '-') {
				k++
			}
			for e := k; e > j+1; e-- {
				if wordBoundary(b, e) {
					return string(b[i:e])
				}
			}
		}
		if wordBoundary(b, j) {
			return string(b[i:j])
		}
	}
	return ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isWordByte is \w: ASCII letters, digits and the underscore.
func isWordByte(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// wordBoundary is \b at offset i of b.
func wordBoundary(b []byte, i int) bool {
	before := i > 0 && isWordByte(b[i-1])
	after := i < len(b) && isWordByte(b[i])
	return before != after
}

// Version returns the version of the agent's binary bin without running
// anything: what the files its installer left say, else what `fleetcom
// doctor` learned by asking it; "" when neither knows.
func Version(a Agent, bin, cacheDir string) string {
	if bin == "" {
		return ""
	}
	if in := ReadInstalled(a.Name, bin); in.Version != "" {
		return in.Version
	}
	v, _ := CachedFact(bin, cacheDir, versionFact)
	return v
}

// Probe returns the version of the agent's binary bin as Version does, and
// when nothing tells, asks the binary (`bin --version`); it also learns
// whatever else the agent needs to know of its binary and only running it
// tells. It is `fleetcom doctor`'s: nothing else runs an agent's binary
// on its own.
func Probe(a Agent, bin, cacheDir string) string {
	if p, ok := a.Behaviour.(Prober); ok {
		p.ProbeBinary(bin, cacheDir)
	}
	if in := ReadInstalled(a.Name, bin); in.Version != "" {
		return in.Version
	}
	return ProbeFact(bin, cacheDir, versionFact, []string{"--version"}, maxVersionOutput, findVersion)
}

// Prober is implemented by an agent with a fact about its binary that only
// running the binary may tell.
type Prober interface {
	// ProbeBinary learns the fact, for doctor, with ProbeFact; the agent's
	// runs read it back with CachedFact.
	ProbeBinary(bin, cacheDir string)
}

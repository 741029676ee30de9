package shim

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is fleetcom's optional config.toml.
//
//	[capture]
//	options = false   # remember launch options for resume (opt-in)
//	tail = 262144     # bytes of terminal output kept for the exit hint
//
//	[claude]          # likewise [codex] and [grok]
//	bin = "/opt/claude/bin/claude"
type Config struct {
	Capture struct {
		Options bool `toml:"options"`
		Tail    int  `toml:"tail"`
	} `toml:"capture"`
	Claude ToolConfig `toml:"claude"`
	Codex  ToolConfig `toml:"codex"`
	Grok   ToolConfig `toml:"grok"`
}

// ToolConfig is one tool's table.
type ToolConfig struct {
	Bin string `toml:"bin"`
}

// LoadConfig reads the config file; a missing file is the zero Config.
func LoadConfig(path string) (Config, error) {
	var c Config
	if path == "" {
		return c, nil
	}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read config: %w", err)
	}
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return c, fmt.Errorf("config %s: unknown setting %s", path, keys[0])
	}
	if c.Capture.Tail < 0 {
		return c, fmt.Errorf("config %s: capture.tail must not be negative", path)
	}
	return c, nil
}

// Bin returns the configured binary of a tool.
func (c Config) Bin(tool string) string {
	switch tool {
	case "claude":
		return c.Claude.Bin
	case "codex":
		return c.Codex.Bin
	case "grok":
		return c.Grok.Bin
	}
	return ""
}

// TailSize is the configured tail, or the default.
func (c Config) TailSize() int {
	if c.Capture.Tail > 0 {
		return c.Capture.Tail
	}
	return DefaultTailSize
}

// quickBin finds `bin = "…"` in a tool's table without decoding the file,
// for the opaque path, which must stay a lookup and an exec. It understands
// the forms LoadConfig's documentation shows: a [tool] header and a bin line
// holding one basic or literal string. Anything it cannot read is "".
func quickBin(path, tool string) string {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte("bin")) {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	in := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = strings.TrimSpace(strings.Trim(line, "[]")) == tool
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !in || !ok || strings.TrimSpace(key) != "bin" {
			continue
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '\'' {
			if end := strings.IndexByte(val[1:], '\''); end >= 0 {
				return val[1 : 1+end]
			}
			return ""
		}
		if len(val) >= 2 && val[0] == '"' {
			if s, err := strconv.QuotedPrefix(val); err == nil {
				if u, err := strconv.Unquote(s); err == nil {
					return u
				}
			}
		}
		return ""
	}
	return ""
}

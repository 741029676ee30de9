package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The real CLIs the suite proves fleetcom against. A version bump means
// re-measuring the facts in README.md.
const (
	ClaudePackage = "@anthropic-ai/claude-code"
	ClaudeVersion = "2.1.197"
	CodexPackage  = "@openai/codex"
	CodexVersion  = "0.171.0"
)

// CacheDir is where npm keeps the downloaded packages between runs:
// $FLEETCOM_E2E_CACHE, else fleetcom-e2e/npm under the user's cache dir. It
// is worked out from the environment the test was started with, before any
// scratch HOME applies.
func CacheDir() (string, error) {
	if d := os.Getenv("FLEETCOM_E2E_CACHE"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find a cache dir for npm (set FLEETCOM_E2E_CACHE): %w", err)
	}
	return filepath.Join(base, "fleetcom-e2e", "npm"), nil
}

// Install installs the pinned CLIs with npm into prefix and returns the
// directory holding their commands. npm runs with the caller's own
// environment and registry settings; only its cache is redirected, so a rerun
// installs from the cache without downloading again.
func Install(prefix, cache string) (string, error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is needed to install the real CLIs: %w", err)
	}
	args := []string{
		"install", "--prefix", prefix, "--cache", cache,
		"--prefer-offline", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		ClaudePackage + "@" + ClaudeVersion, CodexPackage + "@" + CodexVersion,
	}
	cmd := exec.Command("npm", args...)
	cmd.Dir = prefix
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	bin := filepath.Join(prefix, "node_modules", ".bin")
	if err := checkVersion(bin, "claude", ClaudeVersion); err != nil {
		// Claude's package swaps its native binary in from a postinstall
		// script; an npm that holds scripts back leaves a stub. Run it.
		pkg := filepath.Join(prefix, "node_modules", filepath.FromSlash(ClaudePackage))
		fix := exec.Command("node", "install.cjs")
		fix.Dir = pkg
		if b, ferr := fix.CombinedOutput(); ferr != nil {
			return "", fmt.Errorf("%v; running its postinstall: %v\n%s", err, ferr, b)
		}
		if err := checkVersion(bin, "claude", ClaudeVersion); err != nil {
			return "", err
		}
	}
	if err := checkVersion(bin, "codex", CodexVersion); err != nil {
		return "", err
	}
	return bin, nil
}

// checkVersion runs "<bin>/<name> --version" and wants want in its output.
// It runs under a throwaway home next to bin, as even this writes state.
func checkVersion(bin, name, want string) error {
	home := filepath.Join(filepath.Dir(filepath.Dir(bin)), "version-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(bin, name), "--version")
	cmd.Env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"),
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	b, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %v\n%s", name, err, b)
	}
	if !strings.Contains(string(b), want) {
		return fmt.Errorf("%s --version: want %s, got %q", name, want, strings.TrimSpace(string(b)))
	}
	return nil
}

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The official xAI Grok CLI. Its npm package ships a launcher and, through an
// optional dependency per platform, the native binary, compressed. A version
// bump means re-measuring the Grok facts in README.md.
const (
	GrokPackage = "@xai-official/grok"
	GrokVersion = "1.0.41"
)

// GrokLatest asks npm for the newest published version of the Grok CLI.
func GrokLatest() (string, error) {
	out, err := exec.Command("npm", "view", GrokPackage, "version").Output()
	if err != nil {
		return "", fmt.Errorf("npm view %s version: %w", GrokPackage, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" {
		return "", fmt.Errorf("npm view %s version: no version", GrokPackage)
	}
	return v, nil
}

// InstallGrok installs one version of the Grok CLI with npm into prefix and
// returns the directory holding its command and the version installed.
// version is a version number or "latest", which is resolved with npm first
// so the installed binary can be checked against it. Grok gets a prefix of its own: npm prunes what an
// earlier install put in a prefix that no package.json names.
//
// The package's postinstall script also copies the binary to
// $GROK_HOME/bin (default ~/.grok/bin) and writes $GROK_HOME/config.toml, so
// npm runs with GROK_HOME pointing into prefix: the real home is not touched.
func InstallGrok(prefix, cache, version string) (bin, installed string, err error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "", fmt.Errorf("npm is needed to install the real CLIs: %w", err)
	}
	if version == "latest" {
		if version, err = GrokLatest(); err != nil {
			return "", "", err
		}
	}
	args := []string{
		"install", "--prefix", prefix, "--cache", cache,
		"--prefer-offline", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		GrokPackage + "@" + version,
	}
	home := filepath.Join(prefix, "install-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", "", err
	}
	cmd := exec.Command("npm", args...)
	cmd.Dir = prefix
	cmd.Env = append(os.Environ(), "GROK_HOME="+filepath.Join(home, ".grok"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", "", fmt.Errorf("npm %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	bin = filepath.Join(prefix, "node_modules", ".bin")
	if err := checkGrokVersion(bin, home, version); err != nil {
		return "", "", err
	}
	return bin, version, nil
}

// checkGrokVersion runs "grok --version" (which prints "grok 1.0.41
// (4220f3b224a6)") under a throwaway home and wants version in it.
func checkGrokVersion(bin, home, version string) error {
	cmd := exec.Command(filepath.Join(bin, "grok"), "--version")
	cmd.Env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "GROK_HOME=" + filepath.Join(home, ".grok"), "GROK_DISABLE_AUTOUPDATER=1",
	}
	b, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("grok --version: %v\n%s", err, b)
	}
	if !strings.Contains(string(b), "grok "+version+" ") {
		return fmt.Errorf("grok --version: want %s, got %q", version, strings.TrimSpace(string(b)))
	}
	return nil
}

var (
	// grokHintRE is Grok's exit hint. It is printed after /quit, a double
	// Ctrl-C or Ctrl-D, or SIGTERM once a prompt was sent, and after /quit
	// even before any prompt.
	grokHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*grok --resume ([0-9A-Fa-f-]{36})`)
)

// grokInputMarker starts the input line of Grok's prompt box. The model
// name of the World's config is drawn on the box's border.
const grokInputMarker = "❯"

// grokReady reports whether Grok's prompt box is on screen: the input
// marker and the configured model's name. Both are the World's own or
// the prompt's essence, not footer wording.
func grokReady(screen string) bool {
	return strings.Contains(screen, grokInputMarker) && strings.Contains(screen, grokModel)
}

// WaitGrok waits until Grok's prompt box is on screen.
func WaitGrok(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("grok's prompt box", startWait, grokReady)
}

// QuitGrok quits a Grok TUI with /quit and returns its exit status and last
// screen.
func QuitGrok(p *Pane) (int, string) {
	p.t.Helper()
	p.Submit("/quit", typeWait)
	return p.WaitExit(exitWait)
}

// panePID is the process ID of the program a pane runs. The npm package
// links its command straight to the native binary, so for grok this is the
// Grok process itself.
func panePID(p *Pane) int {
	p.t.Helper()
	out := strings.TrimSpace(p.x.must(p.t, "display-message", "-p", "-t", p.id, "#{pane_pid}"))
	pid, err := strconv.Atoi(out)
	if err != nil {
		p.t.Fatalf("pane pid %q: %v", out, err)
	}
	return pid
}

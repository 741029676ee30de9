package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// CLI is one real agent CLI the suite drives: its command, the npm package
// that ships it and the version the facts in README.md were measured on.
// Each CLI's world file registers its own (agents.go).
type CLI struct {
	Name    string // the command, as on PATH
	Package string // the npm package
	Pinned  string // the version the suite is known to pass on
	// Postinstall is a script of the package run with node when the
	// installed command does not report its version, or is not Native:
	// an npm that holds install scripts back leaves a stub or a launcher
	// in place of a native binary.
	Postinstall string
	// HomeVar names the variable of the CLI's home when the package's
	// install scripts write there (they default to one in the user's home):
	// npm and Postinstall run with it pointing inside the prefix.
	HomeVar string
	// Native says the command must be the CLI's own executable, not a
	// script that starts it, so that a pane's PID is the CLI's process.
	Native bool
}

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

// Latest asks the registry which version of c it serves as latest now.
// npm runs with the caller's own registry settings.
func Latest(c CLI, cache string) (string, error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is needed to resolve the latest %s: %w", c.Name, err)
	}
	cmd := exec.Command("npm", "view", "--cache", cache, "--loglevel=error", c.Package, "version")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm view %s version: %v\n%s", c.Package, err, errb.String())
	}
	v := strings.TrimSpace(out.String())
	if !versionRE.MatchString(v) {
		return "", fmt.Errorf("npm view %s version: not a version: %q", c.Package, v)
	}
	return v, nil
}

// Install installs version of c with npm into prefix, a directory of its
// own, and returns the directory holding its command. npm runs with the
// caller's own environment and registry settings; only its cache is
// redirected (and shared by every prefix), so a rerun installs from the
// cache without downloading again.
func Install(c CLI, version, prefix, cache string) (string, error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is needed to install the real CLIs: %w", err)
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err
	}
	args := []string{
		"install", "--prefix", prefix, "--cache", cache,
		"--prefer-offline", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		c.Package + "@" + version,
	}
	env := os.Environ()
	if c.HomeVar != "" {
		env = append(env, c.HomeVar+"="+filepath.Join(prefix, "install-home"))
	}
	cmd := exec.Command("npm", args...)
	cmd.Dir = prefix
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	bin := filepath.Join(prefix, "node_modules", ".bin")
	err := checkInstalled(c, bin, version)
	if err != nil && c.Postinstall != "" {
		pkg := filepath.Join(prefix, "node_modules", filepath.FromSlash(c.Package))
		fix := exec.Command("node", c.Postinstall)
		fix.Dir = pkg
		// As npm runs it: some scripts act only for npm (Grok's links
		// its command to the native binary only then).
		fix.Env = append(env, "npm_config_user_agent=npm/e2e-rig")
		if b, ferr := fix.CombinedOutput(); ferr != nil {
			return "", fmt.Errorf("%v; running its postinstall: %v\n%s", err, ferr, b)
		}
		err = checkInstalled(c, bin, version)
	}
	if err != nil {
		return "", err
	}
	return bin, nil
}

// checkInstalled checks the command of c in bin: it reports version and,
// for a Native CLI, is an executable rather than a script.
func checkInstalled(c CLI, bin, version string) error {
	if err := checkVersion(bin, c.Name, version); err != nil {
		return err
	}
	if !c.Native {
		return nil
	}
	p := filepath.Join(bin, c.Name)
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 2)
	if _, err := io.ReadFull(f, head); err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	if string(head) == "#!" {
		return fmt.Errorf("%s is a script that starts %s, not its native binary", p, c.Name)
	}
	return nil
}

// checkVersion runs "<bin>/<name> --version" and wants want in its output.
// It runs under a throwaway home next to bin, as even this writes state.
func checkVersion(bin, name, want string) error {
	home := filepath.Join(filepath.Dir(filepath.Dir(bin)), "version-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(bin, name), "--version")
	cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home}
	for _, name := range AgentNames() {
		if a := agents[name]; a.VersionEnv != nil {
			cmd.Env = append(cmd.Env, a.VersionEnv(home)...)
		}
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

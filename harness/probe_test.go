package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// The version of each install the CLIs' installers make is read from the
// files they leave, as measured (installed.go); a binary nothing describes
// has none.
func TestInstalledVersion(t *testing.T) {
	root := t.TempDir()
	link := func(target, at string) string {
		os.MkdirAll(filepath.Dir(at), 0o755)
		if err := os.Symlink(target, at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	// Grok's own installer and Claude's native one.
	harnesstest.WriteExec(t, filepath.Join(root, "grok-home", "bin", "grok-1.0.41"), "#!/bin/sh\n")
	grokInstaller := link("grok-1.0.41", filepath.Join(root, "grok-home", "bin", "grok"))
	harnesstest.WriteExec(t, filepath.Join(root, "share", "claude", "versions", "2.1.332"), "#!/bin/sh\n")
	claudeNative := link(filepath.Join(root, "share", "claude", "versions", "2.1.332"), filepath.Join(root, "local", "bin", "claude"))
	// A keg: <name>/<version>/bin/<name>.
	harnesstest.WriteExec(t, filepath.Join(root, "Cellar", "codex", "0.171.0", "bin", "codex"), "#!/bin/sh\n")
	keg := link(filepath.Join(root, "Cellar", "codex", "0.171.0", "bin", "codex"), filepath.Join(root, "brew", "bin", "codex"))
	// Grok's npm package links bin/grok to grok-native beside it.
	grokNPM := harnesstest.NPMBinary(t, "@xai-official/grok", "grok", "1.0.41")
	native := filepath.Join(filepath.Dir(grokNPM), "..", filepath.FromSlash("@xai-official/grok"), "bin")
	os.Rename(filepath.Join(native, "grok-file"), filepath.Join(native, "grok-native"))
	os.Symlink("grok-native", filepath.Join(native, "grok-file"))
	// A wrapper script, and a package whose "bin" names another file.
	wrapper := filepath.Join(root, "wrap", "claude")
	harnesstest.WriteExec(t, wrapper, "#!/bin/sh\nexec claude \"$@\"\n")
	other := harnesstest.NPMBinary(t, "@someone/tools", "other", "3.0.0")
	stranger := filepath.Join(filepath.Dir(filepath.Dir(other)), "@someone", "tools", "bin", "claude")
	harnesstest.WriteExec(t, stranger, "#!/bin/sh\n")
	hostile := harnesstest.NPMBinary(t, "@anthropic-ai/claude-code", "claude", "2.1.332; rm -rf ~")
	for _, c := range []struct {
		name, agent, bin string
		want             Installed
	}{
		{"claude npm", "claude", harnesstest.NPMBinary(t, "@anthropic-ai/claude-code", "claude", "2.1.332"), Installed{Version: "2.1.332", Package: "@anthropic-ai/claude-code"}},
		{"codex npm", "codex", harnesstest.NPMBinary(t, "@openai/codex", "codex", "0.171.0"), Installed{Version: "0.171.0", Package: "@openai/codex"}},
		{"grok npm", "grok", grokNPM, Installed{Version: "1.0.41", Package: "@xai-official/grok"}},
		{"grok installer", "grok", grokInstaller, Installed{Version: "1.0.41", Named: true}},
		{"claude native", "claude", claudeNative, Installed{Version: "2.1.332"}},
		{"keg", "codex", keg, Installed{Version: "0.171.0"}},
		{"wrapper", "claude", wrapper, Installed{}},
		{"another command's package", "claude", stranger, Installed{}},
		{"hostile version", "claude", hostile, Installed{Package: "@anthropic-ai/claude-code"}},
		{"missing", "claude", filepath.Join(root, "none"), Installed{}},
	} {
		if got := ReadInstalled(c.agent, c.bin); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// A shim run's version costs no process: Version reads files and doctor's
// cache only. Probe (doctor) asks a binary its files do not describe once,
// and keeps the answer, or the failure, for that binary.
func TestVersionRunsNothing(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "fleetcom")
	claude := standIn("claude")
	npm := harnesstest.NPMBinary(t, "@anthropic-ai/claude-code", "claude", "2.1.332")
	npmStarts := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(npm))), "starts")
	if v := Version(claude, npm, cache); v != "2.1.332" {
		t.Errorf("Version of an npm install = %q", v)
	}
	if v := Probe(claude, npm, cache); v != "2.1.332" || harnesstest.CountStarts(npmStarts) != 0 {
		t.Errorf("Probe of an npm install = %q after %d starts", v, harnesstest.CountStarts(npmStarts))
	}

	dir := t.TempDir()
	log := filepath.Join(dir, "starts")
	bin := filepath.Join(dir, "claude")
	harnesstest.WriteExec(t, bin, harnesstest.LogStarts(log)+"echo '2.1.400 (Claude Code)'\n")
	if v := Version(claude, bin, cache); v != "" || harnesstest.CountStarts(log) != 0 {
		t.Fatalf("Version of an unknown binary = %q after %d starts", v, harnesstest.CountStarts(log))
	}
	for range 3 {
		if v := Probe(claude, bin, cache); v != "2.1.400" {
			t.Fatalf("Probe = %q", v)
		}
	}
	if v := Version(claude, bin, cache); v != "2.1.400" || harnesstest.CountStarts(log) != 1 {
		t.Errorf("after doctor: Version = %q, %d starts", v, harnesstest.CountStarts(log))
	}
	// A failure is kept as well: one start for a binary that names no
	// version, however often doctor asks.
	failing := filepath.Join(dir, "failing")
	harnesstest.WriteExec(t, failing, harnesstest.LogStarts(log)+"echo 'no version here'; exit 3\n")
	for range 3 {
		if v := Probe(claude, failing, cache); v != "" {
			t.Fatalf("Probe of a failing binary = %q", v)
		}
	}
	if n := harnesstest.CountStarts(log); n != 2 {
		t.Errorf("%d starts, want one per binary", n)
	}
	// A new file at the same path is asked again.
	harnesstest.WriteExec(t, bin, harnesstest.LogStarts(log)+"echo '2.1.401 (Claude Code) and a longer line'\n")
	if v := Probe(claude, bin, cache); v != "2.1.401" {
		t.Errorf("after an update Probe = %q", v)
	}
}

// A --version that never stops writing is stopped at the output bound: the
// probe keeps a few KiB, not everything the binary writes until it is
// killed.
func TestProbeOutputBounded(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "claude")
	harnesstest.WriteExec(t, bin, "#!/bin/sh\necho '2.1.332 (Claude Code)'\nexec yes 'more output than anyone needs'\n")
	done := make(chan []byte, 1)
	go func() { done <- runCapped(bin, []string{"--version"}, maxVersionOutput) }()
	select {
	case out := <-done:
		if len(out) != maxVersionOutput || findVersion(out) != "2.1.332" {
			t.Errorf("kept %d bytes, version %q", len(out), findVersion(out))
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the probe did not stop a binary that goes on writing")
	}
}

// The cache decides how runs are instrumented, so it is held to the
// store's rule: one in a directory others can write to is neither read nor
// written, and a FIFO or a symlink in its place is neither blocked on,
// followed nor replaced.
func TestProbeCacheGuarded(t *testing.T) {
	claude := standIn("claude")
	dir := t.TempDir()
	log := filepath.Join(dir, "starts")
	bin := filepath.Join(dir, "claude")
	harnesstest.WriteExec(t, bin, harnesstest.LogStarts(log)+"echo '2.1.332 (Claude Code)'\n")

	open := filepath.Join(t.TempDir(), "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	Probe(claude, bin, open)
	if _, err := os.Stat(filepath.Join(open, probeCacheName)); err == nil {
		t.Error("a cache written in a directory others can write to")
	}
	key, _ := identity(bin)
	planted, _ := json.Marshal([]probeEntry{{probeKey: key, Facts: map[string]string{versionFact: "6.6.6"}}})
	os.WriteFile(filepath.Join(open, probeCacheName), planted, 0o600)
	if v := Version(claude, bin, open); v != "" {
		t.Errorf("a planted cache believed: %q", v)
	}

	for _, plant := range []func(p string) error{
		func(p string) error { return syscall.Mkfifo(p, 0o600) },
		func(p string) error { return os.Symlink(filepath.Join(open, probeCacheName), p) },
	} {
		cache := filepath.Join(t.TempDir(), "fleetcom")
		os.Mkdir(cache, 0o700)
		p := filepath.Join(cache, probeCacheName)
		if err := plant(p); err != nil {
			t.Fatal(err)
		}
		done := make(chan string, 1)
		go func() { done <- Probe(claude, bin, cache) + Version(claude, bin, cache) }()
		select {
		case v := <-done:
			if v != "2.1.332" {
				t.Errorf("with a planted cache file: %q", v)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the cache blocked on a FIFO")
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode().IsRegular() {
			t.Errorf("the planted file was replaced: %v", err)
		}
	}
}

// standIn is an agent called name with nothing but its name: what Version
// and Probe read of an agent that probes nothing of its own.
func standIn(name string) Agent { return Agent{Spec: &Spec{Name: name}} }

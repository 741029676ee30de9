package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

func init() { opencodePluginModules = opencodePlugins }

// opencodePluginInstalls are the plugin packages installed, by version.
var opencodePluginInstalls sync.Map // version -> *pluginInstall

type pluginInstall struct {
	once    sync.Once
	modules string
	err     error
}

// opencodePlugins installs @opencode-ai/plugin of version with npm, once
// per test process, into the suite's scratch directory, and returns its
// node_modules.
func opencodePlugins(version string) (string, error) {
	v, _ := opencodePluginInstalls.LoadOrStore(version, &pluginInstall{})
	st := v.(*pluginInstall)
	st.once.Do(func() {
		var dir, cache string
		if dir, st.err = scratchDir(); st.err != nil {
			return
		}
		if cache, st.err = CacheDir(); st.err != nil {
			return
		}
		prefix := filepath.Join(dir, "npm", "opencode-plugin@"+version)
		if st.err = os.MkdirAll(prefix, 0o755); st.err != nil {
			return
		}
		cmd := exec.Command("npm", "install", "--prefix", prefix, "--cache", cache, "--prefer-offline",
			"--no-audit", "--no-fund", "--no-save", "--loglevel=error", "@opencode-ai/plugin@"+version)
		cmd.Dir = prefix
		if out, err := cmd.CombinedOutput(); err != nil {
			st.err = fmt.Errorf("npm install @opencode-ai/plugin@%s: %v\n%s", version, err, out)
			return
		}
		st.modules = filepath.Join(prefix, "node_modules")
	})
	return st.modules, st.err
}

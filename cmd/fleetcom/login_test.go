package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The shims stay first where the user types, in real login shells on a
// terminal, whatever the startup files do to PATH after the init line: a
// Debian ~/.profile that reads ~/.bashrc and then puts ~/.local/bin first
// (where Claude Code's native installer puts claude), a zsh .zprofile that
// prepends (as `brew shellenv` and macOS's path_helper do, after an init
// line in .zshenv), and a fish config that prepends after the init line.
// At the prompt, claude is the shim, and running it records.
func TestLoginShellKeepsShimsFirst(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	bin := filepath.Join(selfAs(t, "fleetcom"), "fleetcom")
	debian, err := os.ReadFile("../../internal/rcfile/testdata/debian.profile")
	if err != nil {
		t.Fatal(err)
	}
	shells := []struct {
		name  string
		argv  []string
		files func(initCmd string) map[string]string
	}{
		{"bash", []string{"bash", "-l"}, func(bin string) map[string]string {
			return map[string]string{
				".profile": string(debian),
				".bashrc":  "eval \"$(" + bin + " init bash)\"\nPS1='fleet> '\n",
			}
		}},
		{"zsh", []string{"zsh", "-l"}, func(bin string) map[string]string {
			return map[string]string{
				".zshenv":   "eval \"$(" + bin + " init zsh)\"\n",
				".zprofile": "export PATH=\"$HOME/.local/bin:$PATH\"\n",
				".zshrc":    "PROMPT='fleet> '\nunsetopt PROMPT_SP\n",
			}
		}},
		{"fish", []string{"fish", "-l"}, func(bin string) map[string]string {
			return map[string]string{
				".config/fish/config.fish": "set -g fish_greeting\n" + bin + " init fish | source\n" +
					"set -gx PATH $HOME/.local/bin $PATH\nfunction fish_prompt; echo -n 'fleet> '; end\n",
			}
		}},
	}
	for _, sh := range shells {
		t.Run(sh.name, func(t *testing.T) {
			path := needShell(t, sh.name)
			home := t.TempDir()
			project := filepath.Join(home, "project")
			localBin := filepath.Join(home, ".local", "bin")
			shims := filepath.Join(home, ".local", "share", "fleetcom", "shims")
			argvLog := filepath.Join(home, "argv.log")
			env := []string{"HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8", "SHELL=" + path,
				"PATH=/usr/local/bin:/usr/bin:/bin", "FAKE_ARGV_LOG=" + argvLog,
				"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
				"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
				"XDG_RUNTIME_DIR=" + filepath.Join(home, "run")}
			for _, d := range []string{project, filepath.Join(home, "run")} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			// Claude's native install, and the other agents beside it.
			if err := installFakes(home, localBin); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "shims", "install")
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("shims install: %v\n%s", err, out)
			}
			for name, content := range sh.files(quoteForShell(bin)) {
				p := filepath.Join(home, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}

			u, err := startPTY(path, sh.argv, env, project)
			if err != nil {
				t.Fatal(err)
			}
			pos, err := u.expect("fleet> ", 0)
			if err != nil {
				t.Fatal(err)
			}
			// The answer is framed by markers the typed line does not hold.
			probe := "echo \"AT[$(command -v claude)]\"; echo END$((6*7))\r"
			if sh.name == "fish" {
				probe = "echo \"AT[\"(command -v claude)\"]\"; echo END(math 6 \\* 7)\r"
			}
			u.Write([]byte(probe))
			end, err := u.expect("END42", pos)
			if err != nil {
				t.Fatal(err)
			}
			screen := u.screen()[pos:end]
			if want := "AT[" + filepath.Join(shims, "claude") + "]"; !strings.Contains(screen, want) {
				t.Errorf("at the prompt of a login %s, claude is not the shim: want %q on the screen:\n%s", sh.name, want, screen)
			}
			pos = end
			u.Write([]byte("claude\r"))
			for _, step := range []struct{ wait, send string }{
				{"Welcome to Claude Code", "hello there\r"},
				{"ACK hello there", "/exit\r"},
				{"fleet> ", "exit\r"},
			} {
				if pos, err = u.expect(step.wait, pos); err != nil {
					t.Fatal(err)
				}
				u.Write([]byte(step.send))
			}
			if status, err := u.finish(); err != nil || status != "exit 0" {
				t.Errorf("the login %s ended with %q, %v", sh.name, status, err)
			}
			// The run went through the shim (it pinned an ID) and was
			// recorded for the project.
			if !instrumented(t, argvLog) {
				t.Errorf("claude ran uninstrumented:\n%s", u.screen())
			}
			cmd = exec.Command(bin, "list", "--json", "-C", project)
			cmd.Env = env
			out, err := cmd.Output()
			var recs []struct{ Tool, ID string }
			if err != nil || json.Unmarshal(out, &recs) != nil || len(recs) != 1 || recs[0].Tool != "claude" {
				t.Errorf("fleetcom list after claude in a login %s: %v\n%s", sh.name, err, out)
			}
		})
	}
}

// quoteForShell single-quotes a path the way install.sh prints it.
func quoteForShell(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }

// instrumented reports whether the fake claude logged a run with a pinned
// --session-id, which only the shim adds.
func instrumented(t *testing.T, log string) bool {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r fakeRun
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Tool == "claude" && len(r.Argv) > 0 && r.Argv[0] == "--session-id" {
			return true
		}
	}
	return false
}

package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// notifyWant is what a config case expects of planNotify.
type notifyWant struct {
	inject bool
	chain  []string
	inCase string // a piece of Case that names the reason
}

// notifyConfigCase is one config file and what it should get.
type notifyConfigCase struct {
	name   string
	config []byte
	want   notifyWant
}

// notifyConfigCases reads the txtar archive of config cases (each file starts
// at a "-- name --" line; go-internal's reader would need more modules than
// go.mod holds); each file's first line says what is expected.
func notifyConfigCases(t testing.TB) []notifyConfigCase {
	raw, err := os.ReadFile("testdata/notify/configs.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var cases []notifyConfigCase
	for _, line := range strings.SplitAfter(string(raw), "\n") {
		name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "-- ")
		if name, ok2 := strings.CutSuffix(name, " --"); ok && ok2 {
			cases = append(cases, notifyConfigCase{name: name})
		} else if len(cases) > 0 {
			cases[len(cases)-1].config = append(cases[len(cases)-1].config, line...)
		}
	}
	for i, c := range cases {
		first, _, _ := strings.Cut(string(c.config), "\n")
		verb, arg, _ := strings.Cut(strings.TrimPrefix(first, "# want "), " ")
		w := &cases[i].want
		switch verb {
		case "none":
			*w = notifyWant{inject: true, inCase: "no notify configured"}
		case "chain":
			*w = notifyWant{inject: true, inCase: "runs after fleetcom's notifier"}
			err = json.Unmarshal([]byte(arg), &w.chain)
		case "refuse":
			*w = notifyWant{inCase: arg}
		default:
			err = fmt.Errorf("first line %q is not a want line", first)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	if len(cases) < 40 {
		t.Fatalf("read %d config cases, want the whole archive", len(cases))
	}
	return cases
}

func notifyCheckPlan(t *testing.T, got notifyPlan, want notifyWant) {
	t.Helper()
	if got.Inject != want.inject || !slices.Equal(got.Chain, want.chain) {
		t.Errorf("plan = inject %v chain %q, want inject %v chain %q (case %q)",
			got.Inject, got.Chain, want.inject, want.chain, got.Case)
	}
	if !strings.Contains(got.Case, want.inCase) || strings.ContainsAny(got.Case, "\r\n") ||
		got.Case == "" || got.Case[:1] != strings.ToLower(got.Case[:1]) {
		t.Errorf("case = %q, want one lowercase line containing %q", got.Case, want.inCase)
	}
}

func notifyWriteConfig(t *testing.T, data []byte) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestNotifyPlanConfigs(t *testing.T) {
	for _, c := range notifyConfigCases(t) {
		t.Run(c.name, func(t *testing.T) {
			notifyCheckPlan(t, planNotify(notifyWriteConfig(t, c.config)), c.want)
		})
	}
}

// TestNotifyOneLine holds the scanner to paths the decoder never lets through
// to it, so that it stays right on its own.
func TestNotifyOneLine(t *testing.T) {
	tests := []struct {
		src  string
		path []string
		want bool
	}{
		{`x = [{ notify = ["a"] }]`, []string{"x", "notify"}, false},
		{"[[x]]\nnotify = [\"a\"]", []string{"x", "notify"}, false},
		{"[x]\nnotify = [\"a\"]", []string{"x", "notify"}, true},
		{"notify = [\"a\"]\n[x]\nnotify = [\"b\"]", []string{"notify"}, true},
		{"notify = [\"a\"]\nnotify = [\"b\"]", []string{"notify"}, false},
		{`notify = "a"`, []string{"notify"}, false},
		{`notify = ["a`, []string{"notify"}, false},
	}
	for _, tt := range tests {
		if got := notifyOneLine([]byte(tt.src), tt.path); got != tt.want {
			t.Errorf("notifyOneLine(%q, %q) = %v, want %v", tt.src, tt.path, got, tt.want)
		}
	}
}

func TestNotifyPlanEncodings(t *testing.T) {
	chainA := notifyWant{inject: true, chain: []string{"a"}, inCase: "runs after"}
	tests := []struct {
		name, config string
		want         notifyWant
	}{
		{"byte order mark", "\ufeffnotify = [\"a\"]\n", chainA},
		{"crlf line ends", "x = 1\r\nnotify = [\"a\"]\r\n", chainA},
		{"crlf inside the array", "notify = [\r\n\"a\"]\r\n", notifyWant{inCase: "one-line"}},
		{"no final newline", `notify = ["a"]`, chainA},
		{"comment without newline at end", `notify = ["a"] # ]`, chainA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notifyCheckPlan(t, planNotify(notifyWriteConfig(t, []byte(tt.config))), tt.want)
		})
	}
}

// TestNotifyPlanFiles covers a config path that is missing, not a regular
// file, unreadable or too large; none of them may block or be second-guessed.
func TestNotifyPlanFiles(t *testing.T) {
	none := notifyWant{inject: true, inCase: "no notify configured"}
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  notifyWant
	}{
		{"absent", func(*testing.T, string) {}, none},
		{"dangling symlink", func(t *testing.T, path string) { notifyMust(t, os.Symlink("nowhere", path)) }, none},
		{"symlink to a config", func(t *testing.T, path string) {
			notifyMust(t, os.WriteFile(path+".real", []byte(`notify = ["a"]`), 0o600))
			notifyMust(t, os.Symlink(path+".real", path))
		}, notifyWant{inject: true, chain: []string{"a"}, inCase: "runs after"}},
		{"directory", func(t *testing.T, path string) { notifyMust(t, os.Mkdir(path, 0o700)) },
			notifyWant{inCase: "not a readable regular file"}},
		{"fifo", func(t *testing.T, path string) { notifyMust(t, syscall.Mkfifo(path, 0o600)) },
			notifyWant{inCase: "not a readable regular file"}},
		{"larger than 4 MiB", func(t *testing.T, path string) {
			big := bytes.Repeat([]byte("# padding padding padding\n"), 4<<20/26+1)
			notifyMust(t, os.WriteFile(path, append(big, `notify = ["a"]`...), 0o600))
		}, notifyWant{inCase: "larger than 4 mib"}},
		{"unreadable", func(t *testing.T, path string) {
			notifyMust(t, os.WriteFile(path, []byte(`notify = ["a"]`), 0o000))
			if _, err := os.ReadFile(path); err == nil {
				t.Skip("mode 000 does not stop this user from reading (running as root); " +
					"the directory and fifo cases cover the unreadable path")
			}
		}, notifyWant{inCase: "not a readable regular file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.setup(t, filepath.Join(home, "config.toml"))
			done := make(chan notifyPlan, 1)
			go func() { done <- planNotify(home) }()
			select {
			case got := <-done:
				notifyCheckPlan(t, got, tt.want)
			case <-time.After(time.Minute):
				t.Fatal("planNotify blocked on the config path")
			}
		})
	}
	t.Run("empty home", func(t *testing.T) {
		notifyCheckPlan(t, planNotify(""), notifyWant{inCase: "codex home is unknown"})
	})
}

// TestNotifyPlanFleetcomNotifier checks that a configured notifier which is
// fleetcom's own is never chained, and that look-alikes still are.
func TestNotifyPlanFleetcomNotifier(t *testing.T) {
	tests := []struct {
		name, rel string
		body      []byte // nil: no file there; "fifo": a FIFO
		chained   bool
	}{
		{"installed copy", "anywhere/" + notifyAsset, []byte(notifyScript), false},
		{"missing from a namespace", "4242-9f8e7d6c/" + notifyAsset, nil, false},
		{"fifo in a namespace", "77-abc/" + notifyAsset, []byte("fifo"), false},
		{"missing elsewhere", "bin/" + notifyAsset, nil, true},
		{"missing from a directory not shaped like a namespace", "4242-/" + notifyAsset, nil, true},
		{"user's own script of that name", "mine/" + notifyAsset, []byte("#!/bin/sh\necho hi\n"), true},
		{"marker under another name", "x/notify.sh", []byte(notifyScript), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := filepath.Join(t.TempDir(), tt.rel)
			if string(tt.body) == "fifo" {
				notifyMust(t, os.MkdirAll(filepath.Dir(prog), 0o700))
				notifyMust(t, syscall.Mkfifo(prog, 0o600))
			} else if tt.body != nil {
				notifyFile(t, prog, tt.body)
			}
			want := notifyWant{inject: true, inCase: "fleetcom's own notifier"}
			if tt.chained {
				want = notifyWant{inject: true, chain: []string{prog, "--flag"}, inCase: "runs after"}
			}
			config := fmt.Sprintf("notify = [%s, \"--flag\"]\n", strconv.Quote(prog))
			notifyCheckPlan(t, planNotify(notifyWriteConfig(t, []byte(config))), want)
		})
	}
}

func TestNotifyScriptAndChainEnv(t *testing.T) {
	if got := notifyChainEnv([]string{"/a b/c", "$HOME", "*"}); got != "/a b/c\n$HOME\n*" {
		t.Errorf("notifyChainEnv = %q", got)
	}
	script := notifyScript
	head := strings.Split(string(script[:min(512, len(script))]), "\n")
	if head[0] != "#!/bin/sh" || !slices.Contains(head, notifyMarker) {
		t.Errorf("script lacks a /bin/sh shebang or the marker %q in its first 512 bytes", notifyMarker)
	}
	// The asset is the script itself.
	if a := spec.Assets[0]; a.Name != notifyAsset || string(a.Data) != script {
		t.Errorf("codex's notifier asset is %s, %d bytes", a.Name, len(a.Data))
	}
}

// FuzzNotifyPlan feeds arbitrary config bytes to the decision: it must not
// panic, and a chain it hands on must survive the newline-joined trip.
func FuzzNotifyPlan(f *testing.F) {
	for _, c := range notifyConfigCases(f) {
		f.Add(c.config)
	}
	// More seeds live in testdata/fuzz/FuzzNotifyPlan, where Go finds them.
	f.Fuzz(func(t *testing.T, config []byte) {
		p := notifyPlanFromConfig(config, new(map[string]any))
		if p.Case == "" || strings.ContainsAny(p.Case, "\r\n") {
			t.Fatalf("case %q is not one line", p.Case)
		}
		if !p.Inject && len(p.Chain) > 0 {
			t.Fatalf("chain %q without injection", p.Chain)
		}
		for _, a := range p.Chain {
			if a == "" || strings.ContainsAny(a, "\n\x00") {
				t.Fatalf("chain %q has an element the script cannot carry", p.Chain)
			}
		}
		if len(p.Chain) > 0 {
			if strings.HasPrefix(p.Chain[0], "-") {
				t.Fatalf("chain program %q starts with '-'", p.Chain[0])
			}
			if diff := cmp.Diff(p.Chain, strings.Split(notifyChainEnv(p.Chain), "\n")); diff != "" {
				t.Fatalf("chain does not round-trip (-want +got):\n%s", diff)
			}
		}
	})
}

package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
)

func write(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
	p := write(t, "[capture]\noptions = true\ntail = 4096\n\n[claude] # the real one\nbin = \"/opt/claude\"\n")
	c, err := Load(p)
	if err != nil || !c.Options || c.Tail != 4096 || c.Bin("claude") != "/opt/claude" || c.Bin("codex") != "" {
		t.Errorf("Load = %+v, %v", c, err)
	}
	if bin, err := Bin(filepath.Join(t.TempDir(), "none.toml"), "claude"); err != nil || bin != "" {
		t.Errorf("Bin of a missing file = %q, %v", bin, err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, lerr := Load(filepath.Join(file, "below")); lerr == nil {
		t.Error("Load of a path below a file gave no error")
	}
	if bin, err := Bin(filepath.Join(file, "below"), "claude"); err == nil {
		t.Errorf("Bin of a path below a file = %q, want the error Load gives", bin)
	}
	if c, err := Load(filepath.Join(t.TempDir(), "none.toml")); err != nil || c.Options || c.Bin("claude") != "" || c.TextOff {
		t.Errorf("missing file: %+v, %v", c, err)
	}
	if c, err := Load(write(t, "[index]\ntext = false\n")); err != nil || !c.TextOff {
		t.Errorf("[index] text = false: %+v, %v", c, err)
	}
	if c, err := Load(write(t, "[index]\ntext = true\n")); err != nil || c.TextOff {
		t.Errorf("[index] text = true: %+v, %v", c, err)
	}
}

// Every way TOML can name the binary is the same binary to both readers.
func TestBinForms(t *testing.T) {
	for _, doc := range []string{
		"[claude]\nbin = \"/x\"",
		"claude.bin = \"/x\"",
		"claude = { bin = \"/x\" }",
		"[claude] # comment\nbin = '/x'",
		"[claude]\n\"b\\u0069n\" = \"/x\"",
		"[ claude ]\n  bin='/x'",
	} {
		p := write(t, doc)
		bin, err := Bin(p, "claude")
		if err != nil || bin != "/x" {
			t.Errorf("Bin(%q) = %q, %v", doc, bin, err)
		}
	}
}

func TestRejects(t *testing.T) {
	for doc, want := range map[string]string{
		"[claude]\nbinn = \"/x\"":         "unknown setting claude.binn",
		"[claud]\nbin = \"/x\"":           "unknown setting claud",
		"[capture]\ntail = -1":            "capture.tail",
		"[capture]\noptions = \"yes\"":    "capture.options",
		"claude = 3":                      "claude must be a table",
		"[claude]\nbin = 3":               "claude.bin must be a string",
		"[index]\ntext = 1":               "index.text must be true or false",
		"[index]\ntexts = false":          "unknown setting index.texts",
		"index = 1":                       "index must be a table",
		"x = " + strings.Repeat("[", 1e6): "deeper",
		"[claude\nbin = 1":                "",
	} {
		p := write(t, doc)
		c, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("Load(%.30q) = %v, want an error naming the file and %q", doc, err, want)
		}
		if c.Bin("claude") != "" || c.Options {
			t.Errorf("a broken config still set something: %+v", c)
		}
		if bin, _ := Bin(p, "claude"); bin != "" {
			t.Errorf("Bin of a broken config = %q", bin)
		}
	}
}

// Nothing fleetcom reads can hang it or exhaust it: a FIFO, /dev/zero
// behind a symlink, a file far over the size limit.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.toml")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big.toml")
	f, _ := os.Create(big)
	f.Truncate(100 << 20)
	f.Close()
	for _, p := range []string{fifo, zero, big} {
		done := make(chan error, 2)
		go func() {
			_, err := Load(p)
			done <- err
			_, err = Bin(p, "claude")
			done <- err
		}()
		for i := 0; i < 2; i++ {
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("%s: no error", filepath.Base(p))
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: reading the config hung", filepath.Base(p))
			}
		}
	}
}

func TestReadOncePerChange(t *testing.T) {
	p := write(t, "[claude]\nbin = \"/one\"\n")
	if c, _ := Load(p); c.Bin("claude") != "/one" {
		t.Fatal(c)
	}
	os.WriteFile(p, []byte("[claude]\nbin = \"/two/x\"\n"), 0o600)
	if c, _ := Load(p); c.Bin("claude") != "/two/x" {
		t.Errorf("a changed file was not read again: %q", c.Bin("claude"))
	}
}

// FuzzBin holds the fast path to the decoder: on every input, Bin's answer
// is the one the decoded config gives.
func FuzzBin(f *testing.F) {
	for _, s := range []string{"[claude]\nbin = \"/x\"", "claude.bin='/x'", "claude={bin=\"/x\"}", "[claude]\n\"\\u0062in\"=\"/y\"",
		"[capture]\ntail=1", "[claude]\nbin = \"/x\"\n[claude]\nbin = \"/y\"", "bin = 1", "[codex]\nbin = '''/c'''"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decode(data)
		for _, tool := range agents.Names() {
			want := ""
			if err == nil {
				want = c.Bin(tool)
			}
			if !mayNameBin(data) && want != "" {
				t.Fatalf("the fast path says no binary, the decoder says %q for %s in %q", want, tool, data)
			}
		}
	})
}

// FuzzDecodeDepth wraps arbitrary TOML in n levels of arrays: decoding
// never panics or exhausts the stack, and a document nested deeper than
// maxDepth is refused before the decoder sees it.
func FuzzDecodeDepth(f *testing.F) {
	for _, s := range []string{"1", "'['", `"]]]"`, "{a=[1]}", "\"\"\"\n]]\n\"\"\"", "# ]]]\n1", "[[[[", "'''x'''"} {
		f.Add([]byte(s), uint16(1))
		f.Add([]byte(s), uint16(maxDepth))
		f.Add([]byte(s), uint16(maxDepth+1))
	}
	f.Add([]byte("1"), uint16(50000))
	f.Fuzz(func(t *testing.T, inner []byte, n uint16) {
		doc := []byte("[claude]\nx = ")
		doc = append(doc, bytes.Repeat([]byte("["), int(n))...)
		doc = append(doc, inner...)
		doc = append(doc, bytes.Repeat([]byte("]"), int(n))...)
		_, err := decode(doc)
		if int(n) > maxDepth && err == nil {
			t.Fatalf("%d nested arrays decoded", n)
		}
	})
}

// A bad file is reported with the line (and, for syntax, the column) to fix.
func TestRejectsWhere(t *testing.T) {
	for doc, want := range map[string]string{
		"# mine\n[capture\noptions = true":                       "line 2, column 9: ",
		"[capture]\noptions = maybe":                             "line 2, column 11: ",
		"[capture]\ntail = 10\n\n[claude]\nbinn = \"/x\"":        "line 5: unknown setting claude.binn",
		"[capture]\n  optoins = true":                            "line 2: unknown setting capture.optoins",
		"capture.options = \"yes\"":                              "line 1: capture.options must be true or false",
		"\n\n[claud]\nbin = \"/x\"":                              "line 3: unknown setting claud",
		"[claude]\nbin = \"/a\"\n[codex]\nbin = 3":               "line 4: codex.bin must be a string",
		"[capture] # mine\noptions = true\n[grok]\nbim = \"/x\"": "line 4: unknown setting grok.bim",
	} {
		_, err := Load(write(t, doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%q) = %v, want an error holding %q", doc, err, want)
		}
	}
}

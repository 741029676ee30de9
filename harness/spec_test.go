package harness

import (
	"strings"
	"testing"
)

// TestHomeVar: HomeVar names the home itself, or, with HomeVarBase, stands
// for $HOME (GEMINI_CLI_HOME: the store is $GEMINI_CLI_HOME/.gemini).
func TestHomeVar(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	own := &Spec{Name: "own", Display: "Own", HomeVar: "OWN_HOME", HomeDir: ".own"}
	base := &Spec{Name: "base", Display: "Base", HomeVar: "BASE_HOME", HomeDir: ".base", HomeVarBase: true}
	data := &Spec{Name: "data", Display: "Data", HomeVar: "DATA_HOME", HomeDir: "data", HomeVarBase: true,
		HomeDefault: ".local/share/data"}
	for _, c := range []struct {
		s    *Spec
		env  map[string]string
		want string
	}{
		{own, map[string]string{"HOME": "/u", "OWN_HOME": "/x/"}, "/x"},
		{own, map[string]string{"HOME": "/u"}, "/u/.own"},
		{base, map[string]string{"HOME": "/u", "BASE_HOME": "/x/"}, "/x/.base"},
		{base, map[string]string{"HOME": "/u"}, "/u/.base"},
		{data, map[string]string{"HOME": "/u", "DATA_HOME": "/x/"}, "/x/data"},
		{data, map[string]string{"HOME": "/u"}, "/u/.local/share/data"},
	} {
		if got := c.s.Home(env(c.env)); got != c.want {
			t.Errorf("%s home with %v = %q, want %q", c.s.Name, c.env, got, c.want)
		}
	}
	if h := own.HomeHelp(); !strings.Contains(h, "Own's home") || !strings.Contains(h, "~/.own") {
		t.Errorf("HomeHelp = %q", h)
	}
	if h := base.HomeHelp(); !strings.Contains(h, "$BASE_HOME/.base") || strings.Contains(h, "Base's home,") {
		t.Errorf("HomeHelp with HomeVarBase = %q", h)
	}
	if h := data.HomeHelp(); !strings.Contains(h, "$DATA_HOME/data") || !strings.Contains(h, "~/.local/share/data") ||
		strings.Contains(h, "$HOME") {
		t.Errorf("HomeHelp with HomeDefault = %q", h)
	}
}

package picker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MarkText prints fzf's lines again, marking only the rows whose key is
// given, with the query cleaned of control characters; the binding names
// the command's words only through the environment.
func TestMarkText(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lines")
	in := "0\ta:1\tclaude  2h  fix the build\n1\tb:2\tcodex  3d  port the parser\n2\tc:3\tgrok  1w  notes\n"
	if err := os.WriteFile(file, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := MarkText(&b, file, []string{"b:2", "x:9"}, "zebra \x1b[31mfish"); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(in, "port the parser\n", "port the parser"+textMark+"zebra ^[[31mfish"+"\n", 1)
	if b.String() != want {
		t.Errorf("MarkText:\n%q\nwant\n%q", b.String(), want)
	}
	if err := MarkText(&b, filepath.Join(t.TempDir(), "none"), nil, "q"); err == nil {
		t.Error("MarkText of a missing file: no error")
	}
	bind := textBinding(3)
	if want := `--bind=change:reload:"$FLEETCOM_TEXT_0" "$FLEETCOM_TEXT_1" "$FLEETCOM_TEXT_2" "$FLEETCOM_TEXT_FILE" {q}`; bind != want {
		t.Errorf("binding %q, want %q", bind, want)
	}
	env := textEnv([]string{"/odd path/fleetcom", "__picktext", "-"}, "/tmp/f")
	if strings.Join(env, "|") != "FLEETCOM_TEXT_0=/odd path/fleetcom|FLEETCOM_TEXT_1=__picktext|FLEETCOM_TEXT_2=-|FLEETCOM_TEXT_FILE=/tmp/f" {
		t.Errorf("env %q", env)
	}
}

package fleet

import (
	"slices"
	"testing"
)

func TestWidening(t *testing.T) {
	for _, c := range []struct {
		tool string
		opts []string
		want []string
	}{
		{"claude", []string{"--model", "opus", "--dangerously-skip-permissions"}, []string{"--dangerously-skip-permissions"}},
		{"claude", []string{"--permission-mode", "plan"}, nil},
		{"claude", []string{"--permission-mode", "bypassPermissions"}, []string{"--permission-mode bypassPermissions"}},
		{"claude", []string{"--permission-mode=acceptEdits"}, []string{"--permission-mode=acceptEdits"}},
		{"codex", []string{"-a", "never", "-s", "workspace-write"}, []string{"-a never"}},
		{"codex", []string{"-c", `approval_policy="never"`, "--full-auto"}, []string{`-c approval_policy="never"`, "--full-auto"}},
		{"gemini", []string{"--yolo"}, []string{"--yolo"}},
		{"copilot", []string{"--allow-all-tools", "--model", "x"}, []string{"--allow-all-tools"}},
		{"grok", []string{"--always-approve"}, []string{"--always-approve"}},
		{"opencode", []string{"--auto"}, []string{"--auto"}},
		{"codex", []string{"--dangerously-skip-permissions"}, nil}, // another agent's option
		{"nosuch", []string{"--yolo"}, nil},
	} {
		if got := Widening(c.tool, c.opts); !slices.Equal(got, c.want) {
			t.Errorf("Widening(%s, %q) = %q, want %q", c.tool, c.opts, got, c.want)
		}
	}
}

package grok

import (
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// Only the context block's "Workspace Path:" is rewritten, and only a whole
// path: a prompt that names the directory, or a longer path beginning with
// it, is what the user typed (issue 21, item 9).
func TestWorkspacePath(t *testing.T) {
	const old, dir = "/src/app", "/src/new app"
	lines := []map[string]any{
		{"type": "system", "content": "You are Grok. Workspace Path: " + old},
		{"type": "user", "content": "<user_info>\nOS Version: linux\nWorkspace Path: " + old + "\n</user_info>\n\n<rules>…"},
		{"type": "user", "content": "<user_info>\nWorkspace Path: " + old + "2\n</user_info>"},
		{"type": "user", "content": "<user_query>\nWorkspace Path: " + old + " and " + old + "2\n</user_query>", "prompt_index": 0},
		{"type": "assistant", "content": "Workspace Path: " + old},
	}
	var in strings.Builder
	for _, l := range lines {
		in.WriteString(harnesstest.JSONLine(t, l))
	}
	place, err := grok{}.Place(t.TempDir(), dir, harnesstest.UUID(t), old, []harness.File{
		{Name: "summary.json", Data: []byte(`{"info":{"cwd":"` + old + `"}}`)},
		{Name: "chat_history.jsonl", Data: []byte(in.String())},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range place.Files {
		if f.Name == "chat_history.jsonl" {
			got = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
		}
	}
	want := strings.Split(strings.TrimSuffix(in.String(), "\n"), "\n")
	want[1] = strings.Replace(want[1], "Workspace Path: "+old+`\n`, "Workspace Path: "+dir+`\n`, 1)
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

package catalog

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
)

// FuzzReadBundle holds the streaming reader to encoding/json: whatever it
// accepts, encoding/json decodes to the same bundle, and what WriteBundle
// writes it reads back as written.
func FuzzReadBundle(f *testing.F) {
	const id = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"
	good := Bundle{Format: bundleFormat, Version: bundleVersion, Tool: "claude", ID: id, Cwd: "/src/app",
		Title: "a \"title\" \\ é", Files: []BundleFile{{Name: "transcript.jsonl", Data: []byte("{\"a\":1}\n\x00\xff")}}}
	var buf bytes.Buffer
	WriteBundle(&buf, good)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"fleetcom-conversation","version":1,"tool":"claude","id":"` + id + `","cwd":"/x","x":[1,{"y":"}"}],"files":[{"data":"e30K","name":"transcript.jsonl","z":null}]}`))
	f.Add([]byte(` { "format" : "fleetcom-conversation" , "version" : 1.0 , "tool" : "claude" , "id" : "` + id + `" , "cwd" : "\/x" , "files" : [ { "name" : "transcript.jsonl" , "data" : "e3\r\n0K" } ] } `))
	f.Add([]byte(`{"format":"fleetcom-conversation","version":1,"tool":"grok","id":"` + id + `","cwd":"/x","files":[{"name":"summary.json","data":"e30=\u003d"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _, err := ReadBundle(bytes.NewReader(data))
		if err != nil {
			return
		}
		var want Bundle
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("ReadBundle accepted what encoding/json refuses (%v):\n%q", err, data)
		}
		want.Title = harness.CleanTitle(want.Title)
		for i := range want.Files {
			if len(want.Files[i].Data) == 0 {
				want.Files[i].Data = nil
			}
		}
		for i := range b.Files {
			if len(b.Files[i].Data) == 0 {
				b.Files[i].Data = nil
			}
		}
		if d := cmp.Diff(want, b); d != "" {
			t.Fatalf("ReadBundle and encoding/json differ (-json +stream):\n%s\n%q", d, data)
		}
	})
}

// TestReadBundleRoundTrip: a bundle WriteBundle wrote reads back as it was.
func TestReadBundleRoundTrip(t *testing.T) {
	const id = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"
	data := make([]byte, 300<<10)
	for i := range data {
		data[i] = byte(i * 7)
	}
	in := Bundle{Format: bundleFormat, Version: bundleVersion, Tool: "grok", ID: id, Cwd: "/src/app dir",
		Title: "t", Files: []BundleFile{{Name: "summary.json", Data: []byte("{}")}, {Name: "chat_history.jsonl", Data: data}}}
	var buf bytes.Buffer
	if err := WriteBundle(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, a, err := ReadBundle(&buf)
	if err != nil || a.Name != "grok" {
		t.Fatalf("%v, agent %q", err, a.Name)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
}

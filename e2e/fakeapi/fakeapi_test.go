package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReply(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, "ACK nothing"},
		{[]string{"hello there."}, "ACK there"},
		{[]string{"remember PELICAN-4821"}, "ACK PELICAN-4821 CODES PELICAN-4821"},
		{[]string{"remember PELICAN-4821", "<system-reminder>x</system-reminder>", "which codes now?"}, "ACK now CODES PELICAN-4821"},
		{[]string{"A ZEBRA-11 B OWL-222", "ZEBRA-11 again"}, "ACK again CODES ZEBRA-11 OWL-222"},
		{[]string{"UTF-8 and /tmp/TestX-123/001 are no codes"}, "ACK codes"},
	} {
		if got := Reply(tc.in); got != tc.want {
			t.Errorf("Reply(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0", filepath.Join(t.TempDir(), "api.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// events reads an SSE stream into event names and data objects.
func events(t *testing.T, r io.Reader) ([]string, []map[string]any) {
	t.Helper()
	var names []string
	var data []map[string]any
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			names = append(names, name)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(d), &m); err != nil {
				t.Fatalf("data %q: %v", d, err)
			}
			data = append(data, m)
		}
	}
	return names, data
}

func post(t *testing.T, u, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestMessagesStream(t *testing.T) {
	s := start(t)
	resp := post(t, s.URL()+"/v1/messages?beta=true", `{"model":"m","stream":true,"messages":[
		{"role":"user","content":"remember PELICAN-4821"},
		{"role":"assistant","content":[{"type":"text","text":"ok"}]},
		{"role":"user","content":[{"type":"text","text":"which codes now"}]}]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	names, data := events(t, resp.Body)
	want := []string{"message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta",
		"content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var text string
	for _, d := range data {
		if delta, ok := d["delta"].(map[string]any); ok && delta["type"] == "text_delta" {
			text += delta["text"].(string)
		}
	}
	if text != "ACK now CODES PELICAN-4821" {
		t.Errorf("streamed text %q", text)
	}
	if r := s.Requests(); len(r) != 1 || r[0].Reply != text || !r[0].Stream || r[0].Model != "m" {
		t.Errorf("recorded %+v", r)
	}
}

func TestMessagesJSONAndStructured(t *testing.T) {
	s := start(t)
	var got struct {
		Content []struct{ Text string }
	}
	resp := post(t, s.URL()+"/v1/messages", `{"model":"m","messages":[{"role":"user","content":"hi OWL-111"}]}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Content) != 1 || got.Content[0].Text != "ACK OWL-111 CODES OWL-111" {
		t.Errorf("plain reply %+v", got)
	}
	resp = post(t, s.URL()+"/v1/messages", `{"model":"m","messages":[{"role":"user","content":"hi OWL-111"}],
		"output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"}}}}}}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Content) != 1 || got.Content[0].Text != `{"title":"Fake session title"}` {
		t.Errorf("structured reply %+v", got)
	}
}

func TestResponsesStream(t *testing.T) {
	s := start(t)
	resp := post(t, s.URL()+"/v1/responses", `{"model":"m","stream":true,"input":[
		{"type":"message","role":"developer","content":[{"type":"input_text","text":"rules HAWK-99"}]},
		{"type":"message","role":"user","content":[{"type":"input_text","text":"remember HERON-3141"}]}]}`)
	names, data := events(t, resp.Body)
	if names[0] != "response.created" || names[len(names)-1] != "response.completed" {
		t.Errorf("events %v", names)
	}
	var text string
	for i, n := range names {
		if n == "response.output_text.delta" {
			text += data[i]["delta"].(string)
		}
	}
	if text != "ACK HERON-3141 CODES HERON-3141" {
		t.Errorf("streamed text %q", text)
	}
	done := data[len(data)-1]["response"].(map[string]any)
	if done["status"] != "completed" || done["usage"].(map[string]any)["total_tokens"] == nil {
		t.Errorf("completed event %v", done)
	}
}

func TestEgressRefused(t *testing.T) {
	s := start(t)
	proxy, _ := url.Parse(s.URL())
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	if _, err := c.Get("https://example.invalid/x"); err == nil {
		t.Error("a proxied HTTPS request got through")
	}
	resp, err := c.Get("http://example.invalid/y")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("proxied HTTP request: %d", resp.StatusCode)
	}
	r := s.Requests()
	if len(r) != 2 || !r[0].Egress || r[0].Path != "example.invalid:443" || r[1].Path != "http://example.invalid/y" {
		t.Errorf("recorded %+v", r)
	}
}

func TestLoopbackOnly(t *testing.T) {
	if s, err := Start("0.0.0.0:0", ""); err == nil {
		s.Close()
		t.Error("listened beyond loopback")
	}
}

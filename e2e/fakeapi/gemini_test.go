package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// geminiTurn is a conversation as Gemini CLI 0.61.0 sends it: its session
// context as the first user part, a turn, then the prompt.
const geminiTurn = `{"contents":[
	{"role":"user","parts":[{"text":"<session_context>\nWorkspace: /tmp/x\n</session_context>"},{"text":"remember PELICAN-4821"}]},
	{"role":"model","parts":[{"text":"ACK PELICAN-4821 CODES PELICAN-4821"}]},
	{"role":"user","parts":[{"text":"which codes now?"}]}],
	"systemInstruction":{"parts":[{"text":"You are Gemini."}]}}`

func postGemini(t *testing.T, s *Server, path, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// geminiText joins the text parts of a response's (or a chunk's)
// candidates.
func geminiText(t *testing.T, data []byte) (text string, finish string) {
	t.Helper()
	var r struct {
		Candidates []struct {
			Content struct {
				Role  string `json:"role"`
				Parts []struct {
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	for _, c := range r.Candidates {
		if c.Content.Role != "model" {
			t.Errorf("role %q", c.Content.Role)
		}
		for _, p := range c.Content.Parts {
			text += p.Text
		}
		finish += c.FinishReason
	}
	return text, finish
}

func TestGeminiStream(t *testing.T) {
	s := start(t)
	resp := postGemini(t, s, "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse", geminiTurn)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d, %s", resp.StatusCode, ct)
	}
	var text, finish string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			tx, f := geminiText(t, []byte(d))
			text, finish = text+tx, finish+f
		}
	}
	if text != "ACK now CODES PELICAN-4821" || finish != "STOP" {
		t.Errorf("streamed %q, finish %q", text, finish)
	}
	if r := s.Requests(); len(r) != 1 || r[0].Model != "gemini-3.8-flash" || !r[0].Stream {
		t.Errorf("logged %+v", r)
	}
	// Without alt=sse the stream is one JSON array of the chunks.
	resp = postGemini(t, s, "/v1beta/models/gemini-3.8-flash:streamGenerateContent", geminiTurn)
	var chunks []json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&chunks); err != nil || len(chunks) < 2 {
		t.Fatalf("array: %v, %d chunks", err, len(chunks))
	}
}

// The router's request: a schema of complexity_score, which the CLI checks
// to be 1-100, and the other router's model_choice enum; the summary
// request gets a title, never an echo of a code word.
func TestGeminiJSONAndSummary(t *testing.T) {
	s := start(t)
	for _, c := range []struct{ schema, want string }{
		{`{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"}}}`,
			`{"complexity_reasoning":"Fake session title","complexity_score":1}`},
		{`{"type":"object","properties":{"reasoning":{"type":"string"},"model_choice":{"type":"string","enum":["flash","pro"]}}}`,
			`{"model_choice":"flash","reasoning":"Fake session title"}`},
		{`{"type":"object","properties":{"next_speaker":{"type":"string","enum":["user","model"]}}}`, `{"next_speaker":"user"}`},
	} {
		body := `{"contents":[{"role":"user","parts":[{"text":"remember PELICAN-4821"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":` + c.schema + `}}`
		resp := postGemini(t, s, "/v1beta/models/gemini-3.5-flash-lite:generateContent", body)
		b, _ := io.ReadAll(resp.Body)
		if text, finish := geminiText(t, b); text != c.want || finish != "STOP" {
			t.Errorf("schema %s: %q, %q", c.schema, text, finish)
		}
	}
	summary := `{"contents":[{"role":"user","parts":[{"text":"Summarize the user's primary intent or goal in this conversation in ONE sentence.\n\nUser: remember PELICAN-4821"}]}]}`
	b, _ := io.ReadAll(postGemini(t, s, "/v1beta/models/gemini-3.5-flash-lite:generateContent", summary).Body)
	if text, _ := geminiText(t, b); text != "Fake session title" {
		t.Errorf("summary %q", text)
	}
	b, _ = io.ReadAll(postGemini(t, s, "/v1beta/models/x:countTokens", geminiTurn).Body)
	if !strings.Contains(string(b), `"totalTokens"`) {
		t.Errorf("countTokens: %s", b)
	}
	for _, p := range []string{"/v1beta/models/a/b:generateContent", "/v1beta/models/x:embed", "/models/x:generateContent"} {
		if resp := postGemini(t, s, p, geminiTurn); resp.StatusCode != 404 {
			t.Errorf("%s: status %d", p, resp.StatusCode)
		}
	}
}

// Package fakeapi is a small stand-in for the model APIs the agent CLIs talk
// to, so the real CLIs can be driven offline on 127.0.0.1.
//
// Each protocol is one file that adds its routes from init (the Anthropic
// Messages API in anthropic.go, the OpenAI Responses API in openai.go, the
// OpenAI Chat Completions API in chat.go), speaking enough of it, streamed
// as SSE or as plain JSON, for one text turn at a time. Replies are
// deterministic (see Reply), so a test can tell from the screen whether the
// model saw the earlier turns of a resumed conversation. Two words typed in a
// prompt make a turn slow (HOLD: held open until Release) or make it ask for
// a tool that needs the user's permission (PERMIT), for tests of a CLI's live
// state (control.go).
// Every request is logged as one JSON line for debugging; anything it does not
// know gets an empty JSON object with 404, which the CLIs treat as "feature not
// available".
//
// It never dials out and listens on loopback only.
package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Request is what the server remembers about one request it answered.
type Request struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Query  string    `json:"query,omitempty"`
	Agent  string    `json:"user_agent,omitempty"`
	Model  string    `json:"model,omitempty"`
	Stream bool      `json:"stream,omitempty"`
	Status int       `json:"status"`
	Reply  string    `json:"reply,omitempty"`
	// Egress marks a request that tried to leave the machine through the
	// fake's proxy role; Path then holds the target.
	Egress bool `json:"egress,omitempty"`
	// Body is the start of the request body, cut to keep the log readable.
	Body string `json:"body,omitempty"`
}

// bodyLogLimit bounds how much of each request body goes to the log: Claude
// Code sends a system prompt and tool list of well over 50 KB with every turn.
const bodyLogLimit = 2048

// Server is a running fake API.
type Server struct {
	ln   net.Listener
	srv  *http.Server
	done chan struct{}

	mu        sync.Mutex
	log       io.WriteCloser
	reqs      []Request
	bodyLimit int

	gate gate
}

// Start listens on addr (use "127.0.0.1:0" for a free port) and serves until
// Close. When logPath is not empty every request is appended to it as JSON.
func Start(addr, logPath string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("fake api address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("fake api address %q: loopback only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for fake api: %w", err)
	}
	s := &Server{ln: ln, done: make(chan struct{}), bodyLimit: bodyLogLimit}
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("open fake api log: %w", err)
		}
		s.log = f
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		s.srv.Serve(ln)
	}()
	return s, nil
}

// Port is the TCP port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// URL is the server's base URL, without a trailing slash or path.
func (s *Server) URL() string { return fmt.Sprintf("http://127.0.0.1:%d", s.Port()) }

// SetBodyLimit sets how many bytes of each request body are kept in the log
// and in Requests; the default keeps the first 2 KiB.
func (s *Server) SetBodyLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodyLimit = n
}

// Requests returns a copy of every request answered so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Close stops the server and closes its log.
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log != nil {
		s.log.Close()
		s.log = nil
	}
	return err
}

// ServeHTTP routes one request and records it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	rec := Request{
		Time:   time.Now(),
		Method: r.Method,
		Path:   r.URL.Path,
		Query:  r.URL.RawQuery,
		Agent:  r.UserAgent(),
	}
	s.mu.Lock()
	rec.Body = cut(body, s.bodyLimit)
	s.mu.Unlock()
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodConnect || r.URL.Host != "":
		// A proxied request: the CLIs were pointed here as their HTTP(S)
		// proxy so that any attempt to leave the machine is refused and
		// logged instead of resolved and dialled.
		rec.Path = r.URL.String()
		if r.Method == http.MethodConnect {
			rec.Path = r.Host
		}
		rec.Egress = true
		http.Error(w, "fakeapi: egress refused", http.StatusForbidden)
		rec.Status = http.StatusForbidden
	case s.serveRoute(w, r, path, body, &rec):
	case r.Method == http.MethodHead || path == "" || path == "/":
		// Connectivity probes: an empty 200 says "reachable".
		writeJSON(w, http.StatusOK, map[string]any{}, &rec)
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{
			"type":  "error",
			"error": map[string]any{"type": "not_found_error", "message": "not implemented by fakeapi"},
		}, &rec)
	}
	s.record(rec)
}

// A route answers the requests of one endpoint of one protocol. Each
// protocol's file (anthropic.go, openai.go, chat.go…) adds its own from
// init: a new protocol is one new file.
type route struct {
	method string
	match  func(path string) bool // path has no trailing slash
	serve  func(s *Server, w http.ResponseWriter, r *http.Request, body []byte, rec *Request)
}

var routes []route

// handle adds a route for method and exactly path.
func handle(method, path string, serve func(s *Server, w http.ResponseWriter, r *http.Request, body []byte, rec *Request)) {
	routes = append(routes, route{method: method, match: func(p string) bool { return p == path }, serve: serve})
}

// serveRoute answers with the first route that takes the request, and
// reports whether one did.
func (s *Server) serveRoute(w http.ResponseWriter, r *http.Request, path string, body []byte, rec *Request) bool {
	for _, rt := range routes {
		if rt.method == r.Method && rt.match(path) {
			rt.serve(s, w, r, body, rec)
			return true
		}
	}
	return false
}

func (s *Server) record(rec Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, rec)
	if s.log != nil {
		line, _ := json.Marshal(rec)
		s.log.Write(append(line, '\n'))
	}
}

func writeJSON(w http.ResponseWriter, status int, v any, rec *Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
	rec.Status = status
}

// sse writes server-sent events and flushes after each one, as the real APIs
// do, so the CLI sees the reply arrive in pieces.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func startSSE(w http.ResponseWriter, rec *Request) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rec.Status = http.StatusOK
	rec.Stream = true
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (e *sse) event(name string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, b)
	if e.f != nil {
		e.f.Flush()
	}
}

// data writes one unnamed event, as the Chat Completions API streams them.
func (e *sse) data(v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	if e.f != nil {
		e.f.Flush()
	}
}

// done ends a Chat Completions stream.
func (e *sse) done() {
	fmt.Fprint(e.w, "data: [DONE]\n\n")
	if e.f != nil {
		e.f.Flush()
	}
}

func cut(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

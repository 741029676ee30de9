package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/index"
)

// A long first build on a terminal says so and draws its progress: files
// with their bytes, then an agent's database conversation by conversation,
// and clears the line when done.
func TestProgressOnATerminal(t *testing.T) {
	var errs bytes.Buffer
	old := stderr
	stderr = &errs
	defer func() { stderr = old }()

	p := &progress{tty: true, started: true, start: time.Now().Add(-2 * time.Second)}
	p.report(index.Progress{Files: 4, FilesDone: 1, Bytes: 4 << 20, BytesDone: 1 << 20})
	if got := errs.String(); !strings.Contains(got, "indexing your conversations (4 files to read;") ||
		!strings.Contains(got, "1/4 files  1.0 MB/4.0 MB  about ") {
		t.Fatalf("files: %q", got)
	}

	errs.Reset()
	p.last = time.Time{}
	p.report(index.Progress{Files: 4, FilesDone: 4, Bytes: 4 << 20, BytesDone: 4 << 20, Database: "opencode", Convs: 1234})
	if got := errs.String(); !strings.HasSuffix(got, "  opencode: 1234 conversations read from its database") {
		t.Fatalf("a database after the files: %q", got)
	}

	errs.Reset()
	p.report(index.Progress{Files: 4, FilesDone: 4, Bytes: 4 << 20, BytesDone: 4 << 20})
	if got := errs.String(); !strings.HasSuffix(got, "\r\033[K") {
		t.Fatalf("done: the line is not cleared: %q", got)
	}

	// A database alone (no files to read) is named in the first line.
	errs.Reset()
	p = &progress{tty: true, started: true, start: time.Now().Add(-time.Second)}
	p.report(index.Progress{Database: "opencode"})
	if got := errs.String(); !strings.Contains(got, "indexing your conversations (opencode's database to read;") ||
		!strings.HasSuffix(got, "  opencode: 0 conversations read from its database") {
		t.Fatalf("a database alone: %q", got)
	}

	// Off a terminal, nothing.
	errs.Reset()
	p = &progress{started: true, start: time.Now().Add(-time.Minute)}
	p.report(index.Progress{Database: "opencode", Convs: 5})
	if errs.Len() != 0 {
		t.Fatalf("off a terminal: %q", errs.String())
	}
}

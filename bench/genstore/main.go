// Command genstore writes synthetic conversation stores in each agent's own
// on-disk format, for benchmarks of the commands that read them. Everything
// it writes follows from -seed: the same flags write the same bytes, so a
// store can be cached and rebuilt.
//
//	genstore -root DIR [flags]
//
// DIR gets a scratch user, laid out as the agents' defaults expect under
// HOME=DIR/home, and fleetcom's XDG directories:
//
//	home/.claude  home/.codex  home/.gemini  home/.grok  home/.copilot
//	data/opencode/opencode.db      (XDG_DATA_HOME=DIR/data)
//	state/fleetcom                 (XDG_STATE_HOME=DIR/state), with -records
//	work/project-NNNN              the directories the conversations ran in
//	manifest.tsv                   one line per conversation
//	markers.tsv                    where each marker word was planted
//
// The text is made of words drawn from a fixed vocabulary with a Zipf-like
// law, so common words are everywhere and rare ones in few places; the
// marker words are in no conversation but those markers.tsv names.
// Conversations start at times spread over -span before -end, and each
// file's mtime is its last line's time.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() { os.Exit(run()) }

// progress is where each step's figures go.
var progress io.Writer = os.Stderr

// opts are the flags: what to write.
type opts struct {
	root  string
	seed  uint64
	end   time.Time
	span  time.Duration
	dirs  int
	force bool

	claude, claudeDirs int
	claudeKB           int
	sidechain          int
	sidechainMB        int
	sidechainLines     int
	records            bool

	codex, codexKB, codexBigMB, codexNames int

	gemini, geminiKB, geminiBigMB int

	grok, copilot int

	opencode, opencodeMessages int
}

func run() int {
	var o opts
	fs := flag.NewFlagSet("genstore", flag.ContinueOnError)
	fs.Usage = func() { usage(fs) }
	end := fs.String("end", "2026-11-30T18:00:00Z", "the newest conversation's time (RFC 3339)")
	fs.StringVar(&o.root, "root", "", "directory to write the scratch user into (required)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed: the same flags and seed write the same bytes")
	fs.DurationVar(&o.span, "span", 180*24*time.Hour, "how far back before -end conversations start")
	fs.IntVar(&o.dirs, "dirs", 50, "project directories the conversations are spread over, for the agents with no flag of their own for it")
	fs.BoolVar(&o.force, "force", false, "write into a -root that is not empty")
	fs.BoolVar(&o.records, "records", false, "write fleetcom's record of every conversation written (all recorded)")
	for _, wr := range writers {
		wr.flags(fs, &o)
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	t, err := time.Parse(time.RFC3339, *end)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genstore: error: -end:", err)
		return 2
	}
	o.end = t
	if o.root == "" || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "genstore: error: usage: genstore -root DIR [flags] (genstore -h lists them)")
		return 2
	}
	if err := generate(o); err != nil {
		fmt.Fprintln(os.Stderr, "genstore: error:", err)
		return 1
	}
	return 0
}

func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `usage: genstore -root DIR [flags]

Writes a scratch user's agent stores in each agent's real format, from a seed.
Point HOME at DIR/home, XDG_STATE_HOME at DIR/state and XDG_DATA_HOME at
DIR/data, and run fleetcom in DIR/work/project-0000.

Scenarios (bench/history.sh runs these; -records adds fleetcom's records):
`)
	for _, wr := range writers {
		fmt.Fprint(w, wr.usage)
	}
	fmt.Fprint(w, "\nFlags:\n")
	fs.PrintDefaults()
}

// writer is one agent's part of genstore, registered by the agent's own
// file: its flags, how many conversations they ask for, and how to write
// them.
type writer struct {
	name  string
	usage string // its scenarios, for -h
	flags func(*flag.FlagSet, *opts)
	count func(opts) int
	write func(*world) error
}

// writers are the agents' parts, in the order their files register them.
var writers []writer

func register(wr writer) bool {
	writers = append(writers, wr)
	return true
}

// generate writes everything o asks for.
func generate(o opts) error {
	if err := prepareRoot(o.root, o.force); err != nil {
		return err
	}
	w, err := newWorld(o)
	if err != nil {
		return err
	}
	start := time.Now()
	for _, s := range writers {
		if s.count(o) == 0 {
			continue
		}
		t := time.Now()
		if err := s.write(w); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Fprintf(progress, "genstore: %s: %d conversations, %s, in %.1fs\n", s.name, w.count(s.name),
			mib(w.bytes(s.name)), time.Since(t).Seconds())
	}
	if err := settleFolders(w.home); err != nil {
		return err
	}
	if o.records {
		t := time.Now()
		if err := w.writeRecords(); err != nil {
			return fmt.Errorf("records: %w", err)
		}
		fmt.Fprintf(progress, "genstore: records: %d in %.1fs\n", len(w.convs), time.Since(t).Seconds())
	}
	if err := w.writeManifest(); err != nil {
		return err
	}
	fmt.Fprintf(progress, "genstore: done in %.1fs: %s\n", time.Since(start).Seconds(), o.root)
	return nil
}

// settleFolders dates each folder under root as its newest entry, deepest
// first: a folder's mtime is when an entry was last made or removed in
// it, which an agent does when a conversation starts, not when the
// generator ran. Left at the time of the run, every folder would look
// lately changed to fleetcom's quick refresh.
func settleFolders(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, dir := range slices.Backward(dirs) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		var newest time.Time
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.ModTime().After(newest) {
				newest = fi.ModTime()
			}
		}
		if !newest.IsZero() {
			if err := os.Chtimes(dir, newest, newest); err != nil {
				return err
			}
		}
	}
	return nil
}

// prepareRoot makes root, refusing one that holds something unless force.
func prepareRoot(root string, force bool) error {
	entries, err := os.ReadDir(root)
	if err == nil && len(entries) > 0 && !force {
		return fmt.Errorf("%s is not empty (use -force to write into it anyway)", root)
	}
	return os.MkdirAll(root, 0o755)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// writeManifest lists every conversation, and every planted marker.
func (w *world) writeManifest() error {
	sortConvs(w.convs)
	if err := writeTSV(filepath.Join(w.root, "manifest.tsv"),
		"tool\tid\tdir\tstarted\tactive\tbytes\tturns\tkind\thome\tpath\ttitle", func(b *bufio.Writer) {
			for _, c := range w.convs {
				kind := c.kind
				if kind == "" {
					kind = "-"
				}
				fmt.Fprintf(b, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", c.tool, c.id, c.cwd, stamp(c.start), stamp(c.end),
					c.bytes, c.turns, kind, c.home, c.path, tsvField(c.title))
			}
		}); err != nil {
		return err
	}
	return writeTSV(filepath.Join(w.root, "markers.tsv"), "marker\ttool\tid\tdir\twhere", func(b *bufio.Writer) {
		for _, c := range w.convs {
			for _, m := range c.markers {
				fmt.Fprintf(b, "%s\t%s\t%s\t%s\t%s\n", m.word, c.tool, c.id, c.cwd, m.where)
			}
		}
	})
}

func writeTSV(path, head string, body func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(f)
	b.WriteString(head + "\n")
	body(b)
	if err := b.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func tsvField(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ").Replace(s)
}

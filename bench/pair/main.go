// Command pair compares commands with an anchor on a shared, noisy machine by
// running them alternately, round by round, and reporting each one's median and
// p99 with its ratio to the first command: the ratio of the medians, and the
// median of the per-round ratios, which cancels drift between rounds.
//
//	pair [flags] -- ANCHOR ARG... -- CMD ARG... [-- CMD ARG...]
//
// A command may begin with NAME=VALUE words, set in its environment; its PATH is
// used to find it, before any timing, as a shell's hash table would.
//
// With -pty every run gets a fresh PTY that pair holds as the user's terminal
// (the command leads a session with it as controlling terminal) and drains; a
// run ends when the command has exited and the terminal has shown everything.
// With -until REGEX as well, a run ends when what the terminal shows matches
// REGEX (Go syntax, so \x1b is ESC): that is its time; pair then types Esc
// and waits for the command to go (killing it after -grace), without
// checking its exit status. A command that exits before a match fails the
// run. This times an interactive program to its first useful frame, such as
// a picker's first row.
// With -keys, each command is started once on its own PTY, and pair times
// one-byte round trips (written to the terminal, echoed by the child, read back)
// alternating command by command; the child must print "R" once ready and stop
// at "q". With -rusage pair also reports CPU time (user+system of the command
// and the children it waited for) and peak RSS. With -vs LABEL the table
// also gives each command's ratios to the command of that label (a build
// paired against the one before it, beside their common anchor); with
// -shuffle each round runs its commands in a random order, so that no
// command always follows the same one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

type command struct {
	label string
	argv  []string
	env   []string
}

type sample struct {
	wall, cpu time.Duration
	rssKiB    int64
	bytes     int64
}

func main() { os.Exit(run()) }

func run() int {
	n := flag.Int("n", 200, "rounds")
	warm := flag.Int("warmup", 3, "rounds run first and not counted")
	labels := flag.String("labels", "", "comma-separated labels, one per command")
	usePTY := flag.Bool("pty", false, "run each command on a fresh PTY that pair drains")
	bytesPer := flag.Int64("bytes", 0, "bytes each run writes: report MiB/s")
	keys := flag.Int("keys", 0, "keystroke mode: this many round trips per command")
	rusage := flag.Bool("rusage", false, "report CPU time and peak RSS")
	title := flag.String("title", "", "heading printed before the table")
	vs := flag.String("vs", "", "label of a second command to give ratios to")
	shuffle := flag.Bool("shuffle", false, "run each round's commands in a random order")
	until := flag.String("until", "", "with -pty: a run ends when the terminal output matches this regexp; then Esc is typed")
	grace := flag.Duration("grace", 5*time.Second, "with -until: how long a command may take to exit after Esc before it is killed")
	flag.Parse()
	var re *regexp.Regexp
	if *until != "" {
		var err error
		if re, err = regexp.Compile(*until); err != nil {
			fmt.Fprintln(os.Stderr, "pair: -until:", err)
			return 2
		}
		if !*usePTY {
			fmt.Fprintln(os.Stderr, "pair: -until needs -pty")
			return 2
		}
	}
	cmds, err := parse(flag.Args(), *labels)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pair:", err)
		return 2
	}
	ref := -1
	if *vs != "" {
		if ref = slices.IndexFunc(cmds, func(c command) bool { return c.label == *vs }); ref < 0 {
			fmt.Fprintf(os.Stderr, "pair: -vs %s: no command has that label\n", *vs)
			return 2
		}
	}
	if *title != "" {
		fmt.Println("##", *title)
	}
	if *keys > 0 {
		return keystrokes(cmds, *keys, *warm)
	}
	res := make([][]sample, len(cmds))
	order := make([]int, len(cmds))
	for i := range order {
		order[i] = i
	}
	for round := -*warm; round < *n; round++ {
		if *shuffle {
			rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for _, i := range order {
			c := cmds[i]
			s, err := runOnce(c, *usePTY, re, *grace)
			if err != nil {
				fmt.Fprintf(os.Stderr, "pair: %s: %v\n", c.label, err)
				return 1
			}
			if round >= 0 {
				res[i] = append(res[i], s)
			}
		}
	}
	report(cmds, res, ref, *bytesPer, *rusage)
	return 0
}

// parse splits the arguments at "--" into commands.
func parse(args []string, labels string) ([]command, error) {
	var cmds []command
	for _, a := range args {
		if a == "--" {
			cmds = append(cmds, command{})
			continue
		}
		if len(cmds) == 0 {
			cmds = append(cmds, command{})
		}
		c := &cmds[len(cmds)-1]
		if len(c.argv) == 0 && strings.Contains(a, "=") && !strings.HasPrefix(a, "=") && !strings.ContainsAny(a[:strings.Index(a, "=")], "/ ") {
			c.env = append(c.env, a)
			continue
		}
		c.argv = append(c.argv, a)
	}
	cmds = slices.DeleteFunc(cmds, func(c command) bool { return len(c.argv) == 0 })
	if len(cmds) < 1 {
		return nil, errors.New("no commands (usage: pair [flags] -- ANCHOR... -- CMD...)")
	}
	ls := strings.Split(labels, ",")
	for i := range cmds {
		c := &cmds[i]
		c.label = filepath.Base(c.argv[0])
		if i < len(ls) && ls[i] != "" {
			c.label = ls[i]
		}
		c.env = append(os.Environ(), c.env...)
		p, err := lookPath(c.argv[0], c.env)
		if err != nil {
			return nil, err
		}
		c.argv[0] = p
	}
	return cmds, nil
}

// lookPath finds file on the PATH of env (the last PATH= entry wins).
func lookPath(file string, env []string) (string, error) {
	if strings.Contains(file, "/") {
		return file, nil
	}
	path := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, file)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", file, exec.ErrNotFound)
}

// report prints the table: each command's median and p99, and its ratios
// to the first command and, when ref >= 0, to command ref.
func report(cmds []command, res [][]sample, ref int, bytesPer int64, rusage bool) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "command\truns\tmedian\tp99\tvs " + cmds[0].label + "\tpaired\t"
	if ref >= 0 {
		head += "vs " + cmds[ref].label + "\tpaired\t"
	}
	if bytesPer > 0 {
		head += "MiB/s\t"
	}
	if rusage {
		head += "cpu\tcpu vs\tmaxrss\t"
	}
	fmt.Fprintln(tw, head)
	wall := func(s sample) float64 { return s.wall.Seconds() }
	cpu := func(s sample) float64 { return s.cpu.Seconds() }
	for i, c := range cmds {
		w := pick(res[i], wall)
		line := fmt.Sprintf("%s\t%d\t%s\t%s\t%.3fx\t%.3fx\t", c.label, len(w), ms(quantile(w, .5)),
			ms(quantile(w, .99)), quantile(w, .5)/quantile(pick(res[0], wall), .5), pairedRatio(res[i], res[0], wall))
		if ref >= 0 {
			line += fmt.Sprintf("%.3fx\t%.3fx\t", quantile(w, .5)/quantile(pick(res[ref], wall), .5),
				pairedRatio(res[i], res[ref], wall))
		}
		if bytesPer > 0 {
			line += fmt.Sprintf("%.1f\t", float64(bytesPer)/quantile(w, .5)/(1<<20))
		}
		if rusage {
			cp := pick(res[i], cpu)
			rss := pick(res[i], func(s sample) float64 { return float64(s.rssKiB) })
			line += fmt.Sprintf("%s\t%.3fx\t%.1f MiB\t", ms(quantile(cp, .5)),
				pairedRatio(res[i], res[0], cpu), slices.Max(rss)/1024)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

func pick(s []sample, f func(sample) float64) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = f(x)
	}
	return out
}

// pairedRatio is the median over rounds of a[i]/b[i].
func pairedRatio(a, b []sample, f func(sample) float64) float64 {
	r := make([]float64, 0, len(a))
	for i := range a {
		if d := f(b[i]); d > 0 {
			r = append(r, f(a[i])/d)
		}
	}
	return quantile(r, .5)
}

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(q*float64(len(s)) + 0.5)
	return s[min(max(i-1, 0), len(s)-1)]
}

func ms(sec float64) string {
	if sec < 1e-3 {
		return fmt.Sprintf("%.1f µs", sec*1e6)
	}
	return fmt.Sprintf("%.3f ms", sec*1e3)
}

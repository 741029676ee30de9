package codex

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The on-disk form of the Codex rollout index (see index.go): plain
// lines between a header naming the format, kind and subject of the file and
// an "end <lines>" trailer, so a file cut short by a crash never parses.

// maxIndexFile bounds what is read of one index file.
const maxIndexFile = 64 << 20

func validKey(k string) bool {
	_, err := hex.DecodeString(k)
	return len(k) == 32 && err == nil && strings.ToLower(k) == k
}

// loadTable reads the days table. Without one, whatever else is there is
// left from an index that was never finished and is discarded.
func (ix *rolloutIndex) loadTable() error {
	_, lines, err := readIndexFile(filepath.Join(ix.dir, "days"), "days")
	if errors.Is(err, os.ErrNotExist) {
		ix.wipe()
		return nil
	}
	if err != nil {
		return err
	}
	for _, l := range lines {
		kind, rest, _ := strings.Cut(l, " ")
		switch kind {
		case "d":
			d, m, _ := strings.Cut(rest, " ")
			mtime, err := strconv.ParseInt(m, 10, 64)
			if err != nil || !validDay(d) {
				return errIndexDamaged
			}
			ix.days[d] = mtime
		case "p":
			if _, ok := relID(rest); !ok {
				return errIndexDamaged
			}
			ix.pending[rest] = true
		default:
			return errIndexDamaged
		}
	}
	return nil
}

// day returns what the index knows of one day's files; the map is the
// index's own and is changed only through setDay.
func (ix *rolloutIndex) day(d string) (map[string]string, error) {
	m, err := ix.month(d[:7])
	if err != nil {
		return nil, err
	}
	return m[d[8:]], nil
}

// setDay replaces what the index knows of one day's files.
func (ix *rolloutIndex) setDay(d string, files map[string]string) {
	m := ix.months[d[:7]]
	if m == nil {
		m = map[string]map[string]string{}
		ix.months[d[:7]] = m
	}
	if maps.Equal(m[d[8:]], files) {
		return
	}
	if len(files) == 0 {
		delete(m, d[8:])
	} else {
		m[d[8:]] = files
	}
	ix.monthDirty[d[:7]] = true
}

// month loads a month file: "DD\t<name>\t<key>" lines.
func (ix *rolloutIndex) month(m string) (map[string]map[string]string, error) {
	if days, ok := ix.months[m]; ok {
		return days, nil
	}
	days := map[string]map[string]string{}
	_, lines, err := readIndexFile(ix.monthPath(m), "month")
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 || !digits(f[0], 2) || f[1] == "" || strings.Contains(f[1], "/") ||
			(f[2] != otherKey && f[2] != pendingKey && !validKey(f[2])) {
			return nil, errIndexDamaged
		}
		if days[f[0]] == nil {
			days[f[0]] = map[string]string{}
		}
		days[f[0]][f[1]] = f[2]
	}
	ix.months[m] = days
	return days, nil
}

func (ix *rolloutIndex) monthPath(m string) string {
	return filepath.Join(ix.dir, "month", strings.ReplaceAll(m, "/", "-"))
}

// shard returns the shard of a directory key; a missing one is empty.
func (ix *rolloutIndex) shard(key string) (*indexShard, error) {
	if s, ok := ix.shards[key]; ok {
		return s, nil
	}
	s := &indexShard{entries: map[string]*indexEntry{}}
	cwd, lines, err := readIndexFile(filepath.Join(ix.dir, "cwd", key), "cwd")
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	s.cwd = cwd
	for _, l := range lines {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			return nil, errIndexDamaged
		}
		checked, err := strconv.ParseInt(f[1], 10, 64)
		if _, ok := relID(f[0]); !ok || err != nil {
			return nil, errIndexDamaged
		}
		s.entries[f[0]] = &indexEntry{checked: checked, title: f[2]}
	}
	ix.shards[key] = s
	return s, nil
}

// save writes what changed: shards, then month files, then the table, so a
// table never claims a day whose files were not written.
func (ix *rolloutIndex) save() error {
	var errs []error
	flat := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for _, key := range slices.Sorted(maps.Keys(ix.shardDirty)) {
		s := ix.shards[key]
		var lines []string
		for _, rel := range slices.Sorted(maps.Keys(s.entries)) {
			e := s.entries[rel]
			lines = append(lines, rel+"\t"+strconv.FormatInt(e.checked, 10)+"\t"+flat.Replace(e.title))
		}
		errs = append(errs, ix.put(filepath.Join(ix.dir, "cwd", key), "cwd", s.cwd, lines))
	}
	for _, m := range slices.Sorted(maps.Keys(ix.monthDirty)) {
		var lines []string
		days := ix.months[m]
		for _, d := range slices.Sorted(maps.Keys(days)) {
			for _, name := range slices.Sorted(maps.Keys(days[d])) {
				lines = append(lines, d+"\t"+name+"\t"+days[d][name])
			}
		}
		errs = append(errs, ix.put(ix.monthPath(m), "month", m, lines))
	}
	if ix.tableDirty {
		var lines []string
		for _, d := range slices.Sorted(maps.Keys(ix.days)) {
			lines = append(lines, "d "+d+" "+strconv.FormatInt(ix.days[d], 10))
		}
		for _, rel := range slices.Sorted(maps.Keys(ix.pending)) {
			lines = append(lines, "p "+rel)
		}
		errs = append(errs, ix.put(filepath.Join(ix.dir, "days"), "days", ix.home, lines))
		ix.sweep()
	}
	return errors.Join(errs...)
}

// sweep removes temp files left by writers that were killed: a write lasts
// milliseconds, so one ten minutes old has no writer any more.
func (ix *rolloutIndex) sweep() {
	entries, _ := os.ReadDir(ix.dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), ".tmp-") && ix.now.Sub(fi.ModTime()) > 10*time.Minute {
			os.Remove(filepath.Join(ix.dir, e.Name()))
		}
	}
}

// put replaces one index file atomically; an empty shard or month file is
// removed instead.
func (ix *rolloutIndex) put(p, kind, detail string, lines []string) error {
	if len(lines) == 0 && kind != "days" {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("codex index: %w", err)
		}
		return nil
	}
	var b strings.Builder
	b.WriteString(indexMagic + " " + kind + " " + strconv.Quote(detail) + "\n")
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("end " + strconv.Itoa(len(lines)) + "\n")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("codex index: %w", err)
	}
	f, err := os.CreateTemp(ix.dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("codex index: %w", err)
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("codex index: %w", err)
	}
	return nil
}

// wipe discards the index of this home, keeping its lock.
func (ix *rolloutIndex) wipe() {
	entries, _ := os.ReadDir(ix.dir)
	for _, e := range entries {
		if e.Name() != "lock" {
			os.RemoveAll(filepath.Join(ix.dir, e.Name()))
		}
	}
}

// readIndexFile reads one index file of the given kind and returns the detail
// of its header and its lines. A missing file wraps os.ErrNotExist; anything
// that does not parse is errIndexDamaged.
func readIndexFile(p, kind string) (string, []string, error) {
	// The index is fleetcom's own: a symlink, a FIFO or anything else in
	// a file's place is damage, and so is a file over the bound, even one
	// that grows while it is read.
	f, err := safe.Open(p, safe.NoFollow)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil, err
		}
		return "", nil, errIndexDamaged
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() > maxIndexFile {
		return "", nil, errIndexDamaged
	}
	var lines []string
	if err := harness.ScanLines(io.LimitReader(f, maxIndexFile), func(l []byte) bool { lines = append(lines, string(l)); return true }); err != nil {
		return "", nil, errIndexDamaged
	}
	if len(lines) < 2 {
		return "", nil, errIndexDamaged
	}
	head, quoted, _ := strings.Cut(lines[0], " "+kind+" ")
	detail, err := strconv.Unquote(quoted)
	if err != nil || head != indexMagic {
		return "", nil, errIndexDamaged
	}
	body := lines[1 : len(lines)-1]
	if lines[len(lines)-1] != "end "+strconv.Itoa(len(body)) {
		return "", nil, errIndexDamaged
	}
	return detail, body, nil
}

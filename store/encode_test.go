package store

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func sampleRecord() Record {
	ended := time.Date(2026, 12, 1, 17, 4, 5, 123456789, time.UTC)
	exit := 130
	return Record{
		Tool: "anchor", ID: "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", Cwd: "/home/ana/src/app",
		Command: `anchor --model "opus" <x> & y`, Program: "anchor", Source: "hint",
		Started: time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC), Ended: &ended, Exit: &exit,
		Resumable: true, Home: "/home/ana/.anchor", Title: "fix\tthe\u2028tests\x01 \xff ü",
		Active: &ended, Updated: ended.Add(time.Second), Options: []string{"--model", "opus"},
		Version: "2.1.332", Evidence: []string{"hint", "pinned"}, Disagreed: []string{"capture"},
	}
}

func TestEncodeRecordIsMarshalIndent(t *testing.T) {
	for name, r := range map[string]Record{
		"full": sampleRecord(),
		"zero": {},
		"open": func() Record {
			r := sampleRecord()
			r.Ended, r.Active, r.Exit, r.Options, r.Version, r.Evidence, r.Disagreed = nil, nil, nil, nil, "", nil, nil
			return r
		}(),
		"zone": func() Record {
			r := sampleRecord()
			r.Started = r.Started.In(time.FixedZone("", 5*3600+1800))
			return r
		}(),
		"empty": func() Record { r := sampleRecord(); r.Options = []string{}; return r }(),
	} {
		checkEncode(t, name, r)
	}
	// A year encoding/json refuses is refused the same way.
	r := sampleRecord()
	r.Updated = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := encodeRecord(r); err == nil {
		t.Error("a year past 9999 was encoded")
	}
}

func checkEncode(t *testing.T, name string, r Record) {
	t.Helper()
	got, err := encodeRecord(r)
	want, werr := json.MarshalIndent(r, "", "  ")
	if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
		t.Errorf("%s: encodeRecord =\n%s\n%v\nencoding/json =\n%s\n%v", name, got, err, want, werr)
	}
}

func FuzzEncodeRecord(f *testing.F) {
	f.Add("anchor", `cmd "q" <a>&b`, "ti\u2028tle\x1f\xfe", "--x", int64(1764608645123456789), int64(19800), 3, true)
	f.Add("", "", "", "", int64(0), int64(0), -1, false)
	f.Fuzz(func(t *testing.T, tool, command, title, option string, nanos, offset int64, exit int, resumable bool) {
		r := sampleRecord()
		r.Tool, r.Command, r.Title, r.Resumable = tool, command, title, resumable
		r.Options = []string{option, title}
		r.Updated = time.Unix(0, nanos).In(time.FixedZone("", int(offset%(18*3600))))
		r.Exit = &exit
		if exit < 0 {
			r.Exit, r.Ended, r.Options = nil, nil, nil
		}
		if exit%2 == 0 {
			r.Active = nil
		}
		checkEncode(t, "fuzz", r)
	})
}

package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/picker"
	"github.com/fleetcom/fleetcom/store"
)

// listing is an each over n conversations, every third of which is not
// offered (see offerable), newest first.
func listing(n int) func(func(catalog.Entry) bool) error {
	return func(fn func(catalog.Entry) bool) error {
		for i := range n {
			e := catalog.Entry{Record: store.Record{Tool: "claude", ID: fmt.Sprintf("%08d-0000-4000-8000-000000000000", i),
				Cwd: "/p", Title: fmt.Sprint("t", i), Resumable: i%3 != 2}}
			if !fn(e) {
				return nil
			}
		}
		return nil
	}
}

func offerable(e catalog.Entry) bool { return e.Resumable }

// TestGatherInBatches: the picker is given the first screen of rows at
// once and the rest in batches, in the listing's order; after stop, each
// row's reference is the conversation the row shows.
func TestGatherInBatches(t *testing.T) {
	var o offering
	first, more, stop := o.gather(listing(3000), offerable, nil, time.Now())
	if len(first) != firstScreen {
		t.Fatalf("first screen of %d rows, want %d", len(first), firstScreen)
	}
	rows := append([]picker.Row(nil), first...)
	for batch := range more {
		rows = append(rows, batch...)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2000 || len(o.refs) != len(rows) {
		t.Fatalf("%d rows given, %d refs; want 2000 of both", len(rows), len(o.refs))
	}
	for i, r := range rows {
		if want := "claude:" + o.refs[i].Ref; r.Key != want {
			t.Fatalf("row %d is %s, its reference %s", i, r.Key, want)
		}
	}
	if rows[1999].Cols[2] != "t2998" {
		t.Errorf("last row %v, want the conversation listed last that is offered", rows[1999].Cols)
	}
}

// TestGatherStopsEarly: a choice made before every row came ends the
// reading, and the rows given so far keep their references.
func TestGatherStopsEarly(t *testing.T) {
	var o offering
	read := 0
	each := func(fn func(catalog.Entry) bool) error {
		return listing(100000)(func(e catalog.Entry) bool { read++; return fn(e) })
	}
	first, _, stop := o.gather(each, offerable, nil, time.Now())
	done := make(chan error, 1)
	go func() { done <- stop() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("stop did not end the reading")
	}
	if read >= 100000 || len(o.refs) < len(first) {
		t.Errorf("read %d of 100000, %d refs for %d rows given", read, len(o.refs), len(first))
	}
	if o.refs[len(first)-1].Ref != "00000298-0000-4000-8000-000000000000" {
		t.Errorf("the first screen's last row refers to %s", o.refs[len(first)-1].Ref)
	}
}

// TestGatherFewerThanAScreen: fewer rows than a screen come all at once,
// and none after them.
func TestGatherFewerThanAScreen(t *testing.T) {
	var o offering
	first, more, stop := o.gather(listing(30), offerable, nil, time.Now())
	if _, ok := <-more; ok || len(first) != 20 {
		t.Errorf("%d rows first, more open %v; want 20 and none after", len(first), ok)
	}
	if err := stop(); err != nil || len(o.refs) != 20 {
		t.Errorf("stop: %v, %d refs", err, len(o.refs))
	}
}

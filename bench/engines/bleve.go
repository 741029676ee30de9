package main

import (
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// bleveEngine is bleve, one document per conversation.
type bleveEngine struct{ idx bleve.Index }

type bleveDoc struct {
	Cwd    string
	Title  string
	Body   string
	Active int64
}

func (e *bleveEngine) build(path string, docs []doc) error {
	m := bleve.NewIndexMapping()
	dm := bleve.NewDocumentMapping()
	kw := bleve.NewTextFieldMapping()
	kw.Analyzer = "keyword"
	dm.AddFieldMappingsAt("Cwd", kw)
	dm.AddFieldMappingsAt("Active", bleve.NewNumericFieldMapping())
	dm.AddFieldMappingsAt("Title", bleve.NewTextFieldMapping())
	dm.AddFieldMappingsAt("Body", bleve.NewTextFieldMapping())
	m.DefaultMapping = dm
	idx, err := bleve.New(path, m)
	if err != nil {
		return err
	}
	e.idx = idx
	b := idx.NewBatch()
	for i, d := range docs {
		if err := b.Index(d.id, bleveDoc{Cwd: d.cwd, Title: d.title, Body: strings.Join(d.chunks, "\n"), Active: d.active}); err != nil {
			return err
		}
		if i%1000 == 999 {
			if err := idx.Batch(b); err != nil {
				return err
			}
			b = idx.NewBatch()
		}
	}
	return idx.Batch(b)
}

func (e *bleveEngine) open(path string) error {
	idx, err := bleve.Open(path)
	e.idx = idx
	return err
}

func (e *bleveEngine) list(cwd string) (int, error) {
	q := bleve.NewTermQuery(cwd)
	q.SetField("Cwd")
	req := bleve.NewSearchRequestOptions(q, 100000, 0, false)
	req.SortBy([]string{"-Active"})
	res, err := e.idx.Search(req)
	if err != nil {
		return 0, err
	}
	return len(res.Hits), nil
}

func (e *bleveEngine) search(terms []string) (int, error) {
	var qs []query.Query
	for _, t := range terms {
		q := bleve.NewMatchPhraseQuery(t)
		q.SetField("Body")
		qs = append(qs, q)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(qs...), 20, 0, false)
	req.Highlight = bleve.NewHighlight()
	res, err := e.idx.Search(req)
	if err != nil {
		return 0, err
	}
	return int(res.Total), nil
}

func (e *bleveEngine) close() {
	if e.idx != nil {
		e.idx.Close()
	}
}

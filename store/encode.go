package store

import "encoding/json"

// encodeRecord is a record as its file holds it: indented JSON.
func encodeRecord(r Record) ([]byte, error) { return json.MarshalIndent(r, "", "  ") }

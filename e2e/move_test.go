package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// pathFields counts, in a JSON-lines file, the string fields that name dir
// or a path below it, by "line type: dotted.field" (with the payload's own
// type for Codex lines, and list indices left out).
func pathFields(b []byte, dir string) map[string]int {
	out := map[string]int{}
	var walk func(v any, path string, kind string)
	walk = func(v any, path, kind string) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				walk(e, strings.TrimPrefix(path+"."+k, "."), kind)
			}
		case []any:
			for _, e := range v {
				walk(e, path+"[]", kind)
			}
		case string:
			if v == dir || strings.Contains(v, dir+"/") || strings.Contains(v, dir+"\n") || strings.Contains(v, dir+" ") {
				out[kind+": "+path]++
			}
		}
	}
	forLines(b, func(line []byte) {
		var v map[string]any
		if json.Unmarshal(line, &v) != nil {
			return
		}
		kind, _ := v["type"].(string)
		if p, ok := v["payload"].(map[string]any); ok {
			if pt, ok := p["type"].(string); ok {
				kind += "/" + pt
			}
		}
		walk(v, "", kind)
	})
	return out
}

// fieldList formats pathFields for the log, one field a line.
func fieldList(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, "\n  %s ×%d", k, m[k])
	}
	return b.String()
}

package calibrate

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rubricmcp/rubric/engine/surface"
)

// Differences are where the captured definitions differ from the ones the
// server itself lists: a registry may keep an older copy, or drop fields.
type Differences struct {
	// Server says what was read (the target), SurfaceHash its hash.
	Server      string `json:"server"`
	SurfaceHash string `json:"surface_hash"`
	// Tools lists the tools that differ, by name; an empty list means the
	// definitions are the same.
	Tools []ToolDifferences `json:"tools"`
}

// ToolDifferences is one tool's differences, one sentence each.
type ToolDifferences struct {
	Tool        string   `json:"tool"`
	Differences []string `json:"differences"`
}

// Diff compares the capture's definitions with the server's, tool by
// tool and member by member (a path such as "annotations.title").
func Diff(capture, server *surface.Surface, target string) *Differences {
	d := &Differences{Server: target, SurfaceHash: server.Hash(), Tools: []ToolDifferences{}}
	names := map[string]bool{}
	for _, t := range capture.Tools {
		names[t.Name] = true
	}
	for _, t := range server.Tools {
		names[t.Name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		ct, inCapture := capture.Tool(name)
		st, inServer := server.Tool(name)
		var lines []string
		switch {
		case !inCapture:
			lines = []string{"the tool is in the server's tools/list, absent in the capture"}
		case !inServer:
			lines = []string{"the tool is in the capture, absent in the server's tools/list"}
		case ct.Hash != st.Hash:
			lines = diffValues("", ct.Definition(), st.Definition())
		}
		if len(lines) > 0 {
			d.Tools = append(d.Tools, ToolDifferences{Tool: name, Differences: lines})
		}
	}
	return d
}

// diffValues describes how the server's value s differs from the
// capture's value c at path.
func diffValues(path string, c, s any) []string {
	cm, cok := c.(map[string]any)
	sm, sok := s.(map[string]any)
	if cok && sok {
		keys := map[string]bool{}
		for k := range cm {
			keys[k] = true
		}
		for k := range sm {
			keys[k] = true
		}
		var out []string
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			cv, inC := cm[k]
			sv, inS := sm[k]
			switch {
			case !inC:
				out = append(out, p+" present in the server, absent in the capture")
			case !inS:
				out = append(out, p+" present in the capture, absent in the server")
			default:
				out = append(out, diffValues(p, cv, sv)...)
			}
		}
		return out
	}
	cj, sj := surface.Canonical(c), surface.Canonical(s)
	if string(cj) == string(sj) {
		return nil
	}
	where := path
	if where == "" {
		where = "the definition"
	}
	return []string{fmt.Sprintf("%s differs: %s in the server, %s in the capture", where, clip(sj), clip(cj))}
}

// clip shortens a value for a sentence.
func clip(b []byte) string {
	const limit = 60
	r := []rune(string(b))
	if len(r) > limit {
		return string(r[:limit]) + "…"
	}
	return string(r)
}

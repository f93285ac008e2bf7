package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/boundedread"
)

// Capture is a registry capture as calibration reads it: the definitions
// the registry scored and the values it published about them.
//
// The file is {"_about", "release", "scoredAt", "server": {...},
// "tools": [{"name", "definition", "qualityScore": {...}}]}. Of each
// tool's qualityScore, the numbers at any depth and the labels directly
// under it (a tier) are kept; of the server, its numbers and its labels.
// Prose (justifications, summaries) is never kept.
type Capture struct {
	// Path is where the capture was read.
	Path string
	// About, Release and ScoredAt say what the capture is, which release
	// of the server the registry scored, and when.
	About, Release, ScoredAt string
	// Surface holds the captured definitions; its hash is the scored set's.
	Surface *surface.Surface
	// Server holds the values published about the whole set, in order.
	Server []Named
	// Tools holds each tool's published values, in the capture's order.
	Tools []PublishedTool
}

// PublishedTool is what a registry published about one tool.
type PublishedTool struct {
	Name   string  `json:"name"`
	Values []Named `json:"values"`

	// other are the members of the tool's qualityScore that are neither
	// a number nor a label (a long text, a boolean, null, an array), by
	// path, each said in words: what New names when the rubric measures
	// one of them as a number.
	other map[string]string
	// bare says in words a qualityScore that is no object of named
	// values ("the number 4.2", "null"), none of which can match a
	// name of the rubric's: what New names as left out; "" for an
	// object, or a tool the capture gives no qualityScore.
	bare string
}

// ReadCapture reads a registry capture. Any other shape is refused.
func ReadCapture(path string) (*Capture, error) {
	b, err := boundedread.ReadFile(context.Background(), path, boundedread.Limit())
	if err != nil {
		return nil, boundedread.Named(err, "registry capture", path, "give the path of a registry capture (a JSON file of release, server and tools)")
	}
	return ParseCapture(path, b)
}

// ParseCapture reads a registry capture from its bytes; name says where
// they came from. The definitions are surface.Parse's; what the registry
// published about each tool (its qualityScore) and the capture's own
// description (_about, scoredAt) are no part of a surface, and are read
// here, from the same bytes.
func ParseCapture(name string, b []byte) (*Capture, error) {
	notCapture := fmt.Errorf("%s is not a registry capture {\"release\", \"server\", \"tools\": [{\"name\", \"definition\", \"qualityScore\"}]}: there are no published scores to calibrate against", name)
	s, err := surface.Parse(name, b)
	if err != nil {
		// A file of another shape is refused for its shape, not for
		// what the surface's reading found wrong among its tools (two
		// tools of one name in a list of scores a registry's pages
		// showed).
		if se := (*surface.Error)(nil); errors.As(err, &se) && se.Format != "" && se.Format != surface.FormatRegistry {
			return nil, notCapture
		}
		return nil, err
	}
	if s.Format != surface.FormatRegistry {
		return nil, notCapture
	}
	type entries struct {
		Tools []struct {
			QualityScore json.RawMessage `json:"qualityScore"`
		} `json:"tools"`
	}
	var top struct {
		About    json.RawMessage `json:"_about"`
		ScoredAt json.RawMessage `json:"scoredAt"`
		entries
		Result *entries `json:"result"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if top.Result != nil {
		top.entries = *top.Result
	}
	if len(s.Tools) == 0 {
		return nil, fmt.Errorf("%s: the capture has no tools: there is nothing to set against the published scores (a registry capture lists each tool it scored, with its definition and its qualityScore)", name)
	}
	if len(top.Tools) != len(s.Tools) {
		return nil, fmt.Errorf("%s: %d tool entries, but %d definitions were read", name, len(top.Tools), len(s.Tools))
	}
	c := &Capture{
		Path: name, Surface: s,
		About: scalarText(top.About), Release: textOf(s.Server["release"]), ScoredAt: scalarText(top.ScoredAt),
	}
	// surface.Parse files the top-level release under the server; it is
	// the capture's, not a published value.
	server := maps.Clone(s.Server)
	delete(server, "release")
	c.Server = flattenValue(server, "", 0)
	for i, t := range s.Tools {
		tool := PublishedTool{Name: t.Name}
		if raw := top.Tools[i].QualityScore; len(raw) > 0 {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("%s: tool %d's qualityScore: %w", name, i+1, err)
			}
			if q, ok := v.(map[string]any); ok {
				tool.Values = flattenValue(q, "", 0)
				tool.other = map[string]string{}
				others(q, "", 0, tool.other)
			} else {
				tool.bare = bareText(v)
			}
		}
		c.Tools = append(c.Tools, tool)
	}
	return c, nil
}

// textOf is a decoded JSON scalar as text: a string as it is, a number or
// a boolean as written; "" for anything else.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64, json.Number, bool:
		return fmt.Sprint(x)
	}
	return ""
}

// scalarText is a JSON string's text, or a number's or boolean's as
// written; "" for anything else.
func scalarText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if raw[0] == '{' || raw[0] == '[' {
		return ""
	}
	return strings.TrimSpace(string(raw))
}

// others files under out, by path, every member of v that flattenValue
// does not keep, said in words ("the string \"4.1 of 5\"", "null").
func others(v any, path string, depth int, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			child := k
			if path != "" {
				child = path + "." + k
			}
			others(e, child, depth+1, out)
		}
	case []any:
		out[path] = "an array"
	case string:
		if depth > 1 || !isLabel(x) {
			out[path] = "the text " + strconv.Quote(clipText(x))
		}
	case bool:
		out[path] = fmt.Sprintf("the boolean %t", x)
	case nil:
		out[path] = "null"
	}
}

// bareText says in words a qualityScore that is no object.
func bareText(v any) string {
	switch x := v.(type) {
	case string:
		return "the text " + strconv.Quote(clipText(x))
	case float64:
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return fmt.Sprintf("the boolean %t", x)
	case []any:
		return "an array"
	}
	return "null"
}

// clipText shortens a text to what a message quotes.
func clipText(s string) string {
	const most = 40
	if utf8.RuneCountInString(s) <= most {
		return s
	}
	return string([]rune(s)[:most]) + "…"
}

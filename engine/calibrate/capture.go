package calibrate

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rubricmcp/rubric/engine/surface"
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
}

// ReadCapture reads a registry capture. Any other shape is refused.
func ReadCapture(path string) (*Capture, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read capture: %w", err)
	}
	return ParseCapture(path, b)
}

// ParseCapture reads a registry capture from its bytes; name says where
// they came from.
func ParseCapture(name string, b []byte) (*Capture, error) {
	s, err := surface.Parse(name, b)
	if err != nil {
		return nil, err
	}
	if s.Format != surface.FormatRegistry {
		return nil, fmt.Errorf("%s is not a registry capture {\"release\", \"server\", \"tools\": [{\"name\", \"definition\", \"qualityScore\"}]}: there are no published scores to calibrate against", name)
	}
	var top struct {
		About    json.RawMessage `json:"_about"`
		Release  json.RawMessage `json:"release"`
		ScoredAt json.RawMessage `json:"scoredAt"`
		Server   json.RawMessage `json:"server"`
		Tools    []struct {
			Name         string          `json:"name"`
			QualityScore json.RawMessage `json:"qualityScore"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &Capture{
		Path: name, Surface: s,
		About: scalarText(top.About), Release: scalarText(top.Release), ScoredAt: scalarText(top.ScoredAt),
	}
	if len(top.Server) > 0 && top.Server[0] == '{' {
		if c.Server, err = flatten(top.Server, "", 0); err != nil {
			return nil, fmt.Errorf("%s: server: %w", name, err)
		}
	}
	for i, t := range top.Tools {
		// surface.Parse checked the entries; the name is the
		// definition's when the entry names none.
		tool := PublishedTool{Name: s.Tools[i].Name}
		if t.Name != "" && t.Name != tool.Name {
			return nil, fmt.Errorf("%s: tools[%d]: entry %q is not the tool %q", name, i, t.Name, tool.Name)
		}
		if len(t.QualityScore) > 0 && t.QualityScore[0] == '{' {
			if tool.Values, err = flatten(t.QualityScore, "", 0); err != nil {
				return nil, fmt.Errorf("%s: tools[%d].qualityScore: %w", name, i, err)
			}
		}
		c.Tools = append(c.Tools, tool)
	}
	return c, nil
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

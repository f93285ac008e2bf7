// Command rubric-transport-dir is an example transport plugin: it reads a
// surface from a directory holding one JSON file per tool definition,
// which is how some projects keep their tool definitions in source
// control. Files are read in name order; anything not ending in .json is
// ignored.
//
//	go build -o .rubric/plugins/rubric-transport-dir ./examples/transport-plugin
//	rubric score dir://./tools
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/sdk"
)

type dir struct{}

// Describe implements transport.Transport: its targets are directories,
// dir://PATH, so a gate reads each side's from its own checkout.
func (dir) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "dir", Version: "0.1.0", Schemes: []string{"dir"}, Locality: transport.Path}, nil
}

// Export implements transport.Transport.
func (dir) Export(ctx context.Context, t transport.Target) (*surface.Surface, error) {
	root := strings.TrimPrefix(t.Location, "dir://")
	limits := t.Limits.WithDefaults()
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("cannot read the tool directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) > limits.MaxTools {
		return nil, fmt.Errorf("%s holds %d tool files, more than %d (raise --max-tools)", root, len(names), limits.MaxTools)
	}
	tools := make([]json.RawMessage, 0, len(names))
	var total int64
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			return nil, err
		}
		if total += int64(len(b)); total > limits.MaxBytes {
			return nil, fmt.Errorf("%s holds more than %s of tool files (raise --max-bytes)", root, transport.Sized(limits.MaxBytes))
		}
		if !json.Valid(b) {
			return nil, fmt.Errorf("%s is not JSON", filepath.Join(root, n))
		}
		tools = append(tools, b)
	}
	doc, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		return nil, err
	}
	s, err := surface.Parse(root, doc)
	if err != nil {
		return nil, err
	}
	s.Source = "dir://" + root
	return s, nil
}

func main() { sdk.ServeTransport(dir{}) }

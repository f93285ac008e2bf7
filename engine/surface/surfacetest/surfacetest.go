// Package surfacetest makes surfaces for tests and benchmarks: large
// ones out of real captures, and a surface of one tool.
package surfacetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/buildtest"
)

// Repeat writes a capture {"server":{"name":"bench"},"tools":[...]} of n
// tools: the tools of the given capture files in turn, again and again,
// each renamed NAME_i so that names stay unique.
func Repeat(w io.Writer, n int, captures ...string) error {
	var tools []map[string]any
	var names []string
	for _, f := range captures {
		ts, err := CaptureTools(f)
		if err != nil {
			return err
		}
		for _, t := range ts {
			tools = append(tools, t)
			names = append(names, fmt.Sprint(t["name"]))
		}
	}
	if len(tools) == 0 {
		return fmt.Errorf("no tools in %v", captures)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(`{"server":{"name":"bench"},"tools":[`)
	for i := range n {
		t := tools[i%len(tools)]
		t["name"] = fmt.Sprintf("%s_%d", names[i%len(tools)], i)
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.Write(b)
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// CorpusFiles is the path of every real capture of the corpus
// (engine/score/testdata/corpus/*.tools.json), found from the module's
// root, so that a test anywhere in the module reads the same files; it
// fails the test when there are none.
func CorpusFiles(tb testing.TB) []string {
	tb.Helper()
	root, err := buildtest.ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "engine", "score", "testdata", "corpus", "*.tools.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no corpus captures under %s: %v", root, err)
	}
	return files
}

// CaptureTools reads the tools of a capture file as encoding/json
// decodes them.
func CaptureTools(file string) ([]map[string]any, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return c.Tools, nil
}

// CorpusTools is the tools of every corpus capture (CaptureTools), a
// list a capture, in the order of CorpusFiles; it fails the test when
// one cannot be read.
func CorpusTools(tb testing.TB) [][]map[string]any {
	tb.Helper()
	var out [][]map[string]any
	for _, f := range CorpusFiles(tb) {
		ts, err := CaptureTools(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, ts)
	}
	return out
}

// OneTool is a surface of one tool named name with description desc and
// an input schema of an empty object.
func OneTool(tb testing.TB, name, desc string) *surface.Surface {
	tb.Helper()
	b, err := json.Marshal(map[string]any{"tools": []any{map[string]any{
		"name": name, "description": desc, "inputSchema": map[string]any{"type": "object"},
	}}})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := surface.Parse("s.json", b)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

package file

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

func TestExport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tools.json")
	doc := `{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Transport{}.Export(context.Background(), transport.Target{Location: path})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "a" || s.Source != path {
		t.Fatalf("surface: %+v", s)
	}

	if _, err := (Transport{}).Export(context.Background(), transport.Target{Location: path, Limits: transport.Limits{MaxBytes: 10}}); err == nil || !strings.Contains(err.Error(), "larger than 10 bytes (raise --max-bytes)") {
		t.Errorf("a file over the limit: %v", err)
	}
	if _, err := (Transport{}).Export(context.Background(), transport.Target{Location: filepath.Join(dir, "nope.json")}); err == nil || !strings.Contains(err.Error(), "cannot read surface") {
		t.Errorf("a missing file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Transport{}).Export(ctx, transport.Target{Location: path}); err == nil {
		t.Error("a cancelled context: want an error")
	}
}

func TestExportDirectory(t *testing.T) {
	_, err := Transport{}.Export(context.Background(), transport.Target{Location: t.TempDir()})
	if err == nil || !strings.HasPrefix(err.Error(), "cannot read surface: read ") || !strings.HasSuffix(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
}

func TestExportStdin(t *testing.T) {
	in := strings.NewReader(`[{"name":"a"}]`)
	if _, err := (Transport{Stdin: strings.NewReader("[]")}).Export(context.Background(), transport.Target{Location: "-", Limits: transport.Limits{MaxBytes: 1}}); err == nil || err.Error() != "<stdin> is larger than 1 bytes (raise --max-bytes)" {
		t.Errorf("standard input over the limit: %v", err)
	}
	s, err := Transport{Stdin: in}.Export(context.Background(), transport.Target{Location: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != "<stdin>" || len(s.Tools) != 1 {
		t.Fatalf("surface: %+v", s)
	}
}

func TestFileScheme(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(path, []byte(`[{"name":"a"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	name, doc, err := Transport{}.ExportDocument(context.Background(), transport.Target{Location: "file://" + path})
	if err != nil || name != path || string(doc) != `[{"name":"a"}]` {
		t.Fatalf("got %q %q %v", name, doc, err)
	}
}

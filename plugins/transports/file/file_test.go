package file

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	if _, err := (Transport{}).Export(context.Background(), transport.Target{Location: filepath.Join(dir, "nope.json")}); err == nil || !strings.Contains(err.Error(), "surface file "+filepath.Join(dir, "nope.json")+" does not exist: give the path of a tools/list JSON file") {
		t.Errorf("a missing file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Transport{}).Export(ctx, transport.Target{Location: path}); err == nil {
		t.Error("a cancelled context: want an error")
	}
}

func TestExportDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Transport{}.Export(context.Background(), transport.Target{Location: dir})
	if err == nil || err.Error() != "surface file "+dir+" is a directory, not a file: "+surfaceNext {
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

// TestExportPath: a regular file is named by its absolute path and size,
// for a host that reads it itself; standard input and what is not a
// regular file are left to be sent as bytes; a file that cannot be read,
// or is over the limit, fails as a read of it fails.
func TestExportPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tools.json")
	doc := `{"tools":[{"name":"a"}]}`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "tools.pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tt := range []struct {
		name, location string
		limit          int64
		wantPath       string
		wantErr        string
	}{
		{name: "a relative path", location: "tools.json", wantPath: file},
		{name: "a file:// target", location: "file://" + file, wantPath: file},
		{name: "standard input", location: "-"},
		{name: "a directory", location: dir},
		// Never opened: opening it would wait for a writer here, and
		// take a writer's one connection where there is one.
		{name: "a named pipe", location: "tools.pipe"},
		{name: "a missing file", location: "missing.json", wantErr: "surface file missing.json does not exist"},
		{name: "over the limit", location: "tools.json", limit: 4, wantErr: "raise --max-bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target := transport.Target{Location: tt.location, Limits: transport.Limits{MaxBytes: tt.limit}}
			_, path, size, err := Transport{}.ExportPath(context.Background(), target)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error saying %q", err, tt.wantErr)
				}
				_, _, rerr := Transport{}.ExportDocument(context.Background(), target)
				if rerr == nil || rerr.Error() != err.Error() {
					t.Errorf("naming the file fails with %q, reading it with %v", err, rerr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if path != tt.wantPath {
				t.Errorf("path %q, want %q", path, tt.wantPath)
			}
			if path != "" && size != int64(len(doc)) {
				t.Errorf("size %d, want %d", size, len(doc))
			}
		})
	}
}

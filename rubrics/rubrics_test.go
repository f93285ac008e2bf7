package rubrics

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
)

func TestFind(t *testing.T) {
	bs, err := List()
	if err != nil {
		t.Fatal(err)
	}
	want := []Builtin{{"gradable", "gradable-v1.hcl"}, {"schema-quality", "schema-quality-v1.hcl"}, {"tdqs", "tdqs-v1.3.hcl"}, {"tool-safety", "tool-safety-v1.hcl"}, {"toolset", "toolset-v1.hcl"}}
	if !slices.Equal(bs, want) {
		t.Fatalf("built-ins: %+v, want %+v", bs, want)
	}
	byName, err := Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	byPath, err := Find("schema-quality-v1.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if byName.Digest != byPath.Digest || byName.File != "builtin:schema-quality-v1.hcl" || byPath.File != "schema-quality-v1.hcl" {
		t.Errorf("the embedded and the file copy differ: %s %s / %s %s", byName.File, byName.Digest, byPath.File, byPath.Digest)
	}
	if _, err := Find("nosuch"); err == nil || !strings.Contains(err.Error(), "name a built-in rubric (gradable, schema-quality, tdqs, tool-safety, toolset)") {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := Find("missing.hcl"); err == nil || err.Error() != "rubric file missing.hcl does not exist: give the path of a .hcl file, or the name of a built-in rubric (rubric rubrics list)" {
		t.Errorf("missing file: %v", err)
	}
	src, err := Source("schema-quality")
	if err != nil || !strings.Contains(string(src), `rubric "schema-quality"`) {
		t.Errorf("Source: %v", err)
	}
}

// TestAll gives every built-in rubric, compiled, in List's order, each
// the rubric Find gives for its name.
func TestAll(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(all), len(Names()); got != want || want == 0 {
		t.Fatalf("%d rubrics, want %d", got, want)
	}
	for i, name := range Names() {
		found, err := Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if all[i] != found || all[i].Digest == "" {
			t.Errorf("rubric %d is %s (digest %q), want %s as Find gives it", i, all[i].Name, all[i].Digest, name)
		}
	}
}

// TestFileNamesAreRubricNames holds index to its shortcut: the name a
// built-in file's name gives is the label of the rubric block inside it.
func TestFileNamesAreRubricNames(t *testing.T) {
	bs, err := List()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		src, err := files.ReadFile(b.File)
		if err != nil {
			t.Fatal(err)
		}
		if got := rubric.Name(b.File, src); got != b.Name {
			t.Errorf("%s holds rubric %q, but its file name says %q: name the file %s-vVERSION.hcl", b.File, got, b.Name, got)
		}
	}
}

func TestNameOfFile(t *testing.T) {
	for _, c := range []struct {
		file, name string
		ok         bool
	}{
		{"tdqs-v1.3.hcl", "tdqs", true},
		{"schema-quality-v1.hcl", "schema-quality", true},
		{"tool-safety-v12.hcl", "tool-safety", true},
		{"tdqs.hcl", "", false},
		{"tdqs-v.hcl", "", false},
		{"tdqs-vx.hcl", "", false},
		{"-v1.hcl", "", false},
		{"tdqs-v1.json", "", false},
	} {
		name, ok := nameOfFile(c.file)
		if name != c.name || ok != c.ok {
			t.Errorf("nameOfFile(%q) = %q, %v; want %q, %v", c.file, name, ok, c.name, c.ok)
		}
	}
}

// TestFindContextEndsWithContext: a rubric file that is a named pipe
// whose writer never finishes holds FindContext only until its context
// ends (Ctrl-C, a cancelled MCP call), where Find's read went on until
// the writer closed. The writer opening the pipe is the sign that the
// read has begun: that open waits for a reader.
func TestFindContextEndsWithContext(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "piped.hcl")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for _, tc := range []struct {
		name string
		read func(context.Context, string) error
	}{
		{"FindContext", func(ctx context.Context, ref string) error { _, err := FindContext(ctx, ref); return err }},
		{"SourceContext", func(ctx context.Context, ref string) error { _, err := SourceContext(ctx, ref); return err }},
		{"FlatContext", func(ctx context.Context, ref string) error { _, err := FlatContext(ctx, ref); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tc.read(ctx, pipe) }()
			w, err := os.OpenFile(pipe, os.O_WRONLY, 0) // returns once the read has opened it
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.WriteString("rubric \"piped\" {\n"); err != nil {
				t.Fatal(err)
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, want the context's end", err)
			}
		})
	}
}

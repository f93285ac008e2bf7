package registry

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
	write := func(name, doc string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	reg := write("reg.json", `{"release":"r1","server":{"name":"s"},"tools":[{"name":"a","definition":{"name":"a","description":"d"},"qualityScore":{"tdqs":3.5}}]}`)
	s, err := Transport{}.Export(context.Background(), transport.Target{Location: "registry://" + reg})
	if err != nil {
		t.Fatal(err)
	}
	// The surface is the definitions: the published scores are the
	// capture's, which calibrate reads from the file itself.
	if len(s.Tools) != 1 || s.Tools[0].Def["qualityScore"] != nil || s.Server["release"] != "r1" {
		t.Fatalf("surface: %+v", s)
	}

	for _, tc := range []struct{ doc, want string }{
		{`{"tools":[{"name":"a"}]}`, "is a tools/list result, not a registry capture"},
		{`[{"name":"a"}]`, "is a bare array of tools, not a registry capture"},
		{`{"server":{},"tools":[]}`, "is a capture, not a registry capture"},
	} {
		_, err := Transport{}.Export(context.Background(), transport.Target{Location: write("x.json", tc.doc)})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--transport file") {
			t.Errorf("%s: got %v, want %q", tc.doc, err, tc.want)
		}
	}
}

package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/transports/file"
	"github.com/rubricmcp/rubric/plugins/transports/registry"
)

func TestRowProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		row  Row
		want string
	}{
		{name: "usable", row: Row{Name: "openai", Pin: "pinned"}, want: ""},
		{name: "a pin mismatch", row: Row{Name: "mine", Pin: "MISMATCH", SHA256: "abc"}, want: "its sha256 abc does not match the pin in plugins.mine.sha256"},
		{name: "a mismatch before its error", row: Row{Name: "mine", Pin: "MISMATCH", SHA256: "abc", Error: "not started"}, want: "its sha256 abc does not match the pin in plugins.mine.sha256"},
		{name: "not described", row: Row{Name: "broken", Pin: "unpinned", Error: "exec format error"}, want: "exec format error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.row.Problem(); got != tc.want {
				t.Errorf("Problem() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestListNamesCompanion: a built-in served by its companion binary is
// listed with the companion's path and sha256, one without a companion
// with rubric's.
func TestListNamesCompanion(t *testing.T) {
	dir := t.TempDir()
	self, companion := filepath.Join(dir, "rubric"), filepath.Join(dir, "rubric-transport-file")
	for path, text := range map[string]string{self: "rubric", companion: "companion"} {
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	selfSum, err := FileSHA256(self)
	if err != nil {
		t.Fatal(err)
	}
	companionSum, err := FileSHA256(companion)
	if err != nil {
		t.Fatal(err)
	}
	list := []protocol.Builtin{
		{Name: "file", Leaf: true, Companion: "rubric-transport-file", Transport: func() transport.Transport { return file.Transport{} }},
		{Name: "registry", Leaf: true, Transport: func() transport.Transport { return registry.Transport{} }},
	}
	rows := (&Host{}).List(context.Background(), &Catalog{Plugins: Builtins(self, list)}, list)
	want := map[string][2]string{"file": {companion, companionSum}, "registry": {self, selfSum}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for _, r := range rows {
		if w := want[r.Name]; r.Path != w[0] || r.SHA256 != w[1] {
			t.Errorf("%s: path %s, sha256 %s; want %s, %s", r.Name, r.Path, r.SHA256, w[0], w[1])
		}
	}
}

package host

import (
	"context"
	"os"
	"os/exec"
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
// listed with the companion's path and sha256; one without a companion,
// or whose companion is of another build or no Go binary at all (which
// the host does not start in its place), with rubric's.
func TestListNamesCompanion(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		companion string // the file copied beside rubric as its companion
		served    bool   // whether the companion serves the file transport
	}{
		{name: "of rubric's build", companion: exe, served: true},
		{name: "of another build", companion: goTool},
		{name: "not a Go binary", companion: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			self, companion := filepath.Join(dir, "rubric"), filepath.Join(dir, "rubric-transport-file")
			copyFile(t, exe, self)
			if tc.companion == "" {
				if err := os.WriteFile(companion, []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				copyFile(t, tc.companion, companion)
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
			want := map[string][2]string{"file": {self, selfSum}, "registry": {self, selfSum}}
			if tc.served {
				want["file"] = [2]string{companion, companionSum}
			}
			if len(rows) != len(want) {
				t.Fatalf("%d rows, want %d", len(rows), len(want))
			}
			for _, r := range rows {
				if w := want[r.Name]; r.Path != w[0] || r.SHA256 != w[1] {
					t.Errorf("%s: path %s, sha256 %s; want %s, %s", r.Name, r.Path, r.SHA256, w[0], w[1])
				}
			}
		})
	}
}

// copyFile copies the file at from to a new executable file at to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

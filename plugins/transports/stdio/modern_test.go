package stdio

import (
	"context"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/modernmcp"
)

// TestExportSDKServers reads the TypeScript SDK v2 test server over stdio:
// serving both eras it is read after the legacy handshake; refusing it, in
// revision 2026-07-28. Either way the tools are those it sends, keyword
// for keyword, icons, execution and _meta included.
func TestExportSDKServers(t *testing.T) {
	for _, c := range []struct {
		name    string
		options []string
		era     string
		version string
	}{
		{"both eras", nil, "legacy", "2025-06-18"},
		{"modern only", []string{"--modern-only"}, "modern", "2026-07-28"},
		{"modern only, a tool a page", []string{"--modern-only", "--page-size", "1"}, "modern", "2026-07-28"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			argv := modernmcp.Command(t, c.options...)
			s, err := Transport{ClientVersion: "test"}.Export(context.Background(), transport.Target{Location: argv[0], Args: argv[1:]})
			if err != nil {
				t.Fatal(err)
			}
			sameTools(t, s, modernmcp.Tools(t, c.era))
			for k, want := range map[string]string{"era": c.era, "protocolVersion": c.version, "name": "rubric-modern-test", "version": "1.2.3", "instructions": "Tools for a test issue tracker."} {
				if s.Server[k] != want {
					t.Errorf("server %s is %v, want %s", k, s.Server[k], want)
				}
			}
		})
	}
}

// sameTools checks that s holds want, in order, keyword for keyword.
func sameTools(t *testing.T, s *surface.Surface, want []map[string]any) {
	t.Helper()
	if len(s.Tools) != len(want) {
		t.Fatalf("%d tools, the server defines %d", len(s.Tools), len(want))
	}
	for i, w := range want {
		if got, want := string(s.Tools[i].Canonical), string(surface.Canonical(w)); got != want {
			t.Errorf("tool %d differs from the server's:\n got %s\nwant %s", i, got, want)
		}
	}
}

package host

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/prestart"
	"github.com/rubricmcp/rubric/internal/proctest"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// whoTransport says in the source of what it exports which binary
// serves it. (The host describes a built-in in process: its Describe
// says nothing of the process.)
type whoTransport struct{ who string }

func (whoTransport) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "file", Version: "1", Schemes: []string{"file"}, Locality: transport.Path}, nil
}

func (w whoTransport) Export(context.Context, transport.Target) (*surface.Surface, error) {
	return surface.Parse(w.who, []byte(`{"tools":[]}`))
}

// companionBuiltin is the built-in the companion tests start, served as
// who.
func companionBuiltin(who string) protocol.Builtin {
	return protocol.Builtin{
		Name: "file", Leaf: true, Companion: "rubric-transport-file",
		Transport: func() transport.Transport { return whoTransport{who} },
	}
}

// TestCompanion starts a built-in with a companion binary as rubric
// does, with real processes: the test binary stands in for both the
// rubric binary and the companion (linked into one directory under
// both names), and says which one served. The companion serves when it
// lies beside the host binary and was built as the host says it is; when
// it is absent, went away after the catalog was made, or is of another
// build, the host binary serves, and only the debug log says why. A
// companion started ahead (internal/prestart) is taken in place of a new
// start, and is checked by build as one started then.
func TestCompanion(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUBRIC_TEST_PLUGIN", "companion")
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	for _, tc := range []struct {
		name string
		// companion says whether the companion is linked beside the
		// host binary; removed, whether it is removed after the catalog
		// was made.
		companion, removed bool
		// build is the build the host says it is; "" is this binary's.
		build string
		// prestarted starts the companion ahead, as rubric's init does
		// (internal/prestart); setenv then changes the environment
		// before the host starts the built-in.
		prestarted, setenv bool
		want               string
		// logged is in the debug log (when the companion did not serve,
		// or was taken as started ahead); unlogged is not.
		logged, unlogged []string
	}{
		{name: "current", companion: true, want: "companion"},
		{name: "absent", want: "host binary"},
		{name: "removed", companion: true, removed: true, want: "host binary",
			logged: []string{"serving it from the rubric binary", "no such file"}},
		{name: "another build", companion: true, build: "0.0.1 0123abc go1.0 linux/amd64 0000", want: "host binary",
			logged: []string{"serving it from the rubric binary", `the rubric that started it is "0.0.1 0123abc`, "install both from one build"}},
		{name: "started ahead", companion: true, prestarted: true, want: "companion",
			logged: []string{"taking the companion started ahead"}},
		{name: "started ahead, another build", companion: true, prestarted: true, build: "0.0.1 0123abc go1.0 linux/amd64 0000", want: "host binary",
			logged: []string{"taking the companion started ahead", "serving it from the rubric binary", `the rubric that started it is "0.0.1 0123abc`}},
		{name: "started ahead, environment changed", companion: true, prestarted: true, setenv: true, want: "companion",
			unlogged: []string{"taking the companion started ahead"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			self := filepath.Join(dir, "rubric")
			if err := os.Symlink(exe, self); err != nil {
				t.Fatal(err)
			}
			companion := filepath.Join(dir, "rubric-transport-file")
			if tc.companion {
				if err := os.Symlink(exe, companion); err != nil {
					t.Fatal(err)
				}
			}
			ps := Builtins(self, []protocol.Builtin{companionBuiltin("")})
			if len(ps) != 1 {
				t.Fatalf("Builtins gave %d plugins", len(ps))
			}
			p := ps[0]
			if found := p.Companion != ""; found != tc.companion {
				t.Fatalf("Companion = %q, with the companion linked: %v", p.Companion, tc.companion)
			}
			if tc.removed {
				if err := os.Remove(companion); err != nil {
					t.Fatal(err)
				}
			}
			if tc.prestarted {
				if runtime.GOOS != "linux" {
					t.Skip("a companion is started ahead on Linux only")
				}
				if err := prestart.Start(companion, false); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(prestart.Discard)
				if tc.setenv {
					t.Setenv("RUBRIC_TEST_CHANGED", "1")
				}
			}
			var buf proctest.Buffer
			log := hclog.New(&hclog.LoggerOptions{Level: hclog.Debug, Output: &buf, DisableTime: true})
			h := New(Options{Log: log, Build: tc.build})
			defer h.Close()
			tr, err := h.Transport(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			s, err := tr.Export(context.Background(), transport.Target{Location: "who"})
			if err != nil {
				t.Fatal(err)
			}
			if s.Source != tc.want {
				t.Errorf("served by the %s, want the %s", s.Source, tc.want)
			}
			tr.Close()
			h.Close()
			logged := buf.String()
			for _, want := range tc.logged {
				if !strings.Contains(logged, want) {
					t.Errorf("the log lacks %q:\n%s", want, logged)
				}
			}
			for _, not := range tc.unlogged {
				if strings.Contains(logged, not) {
					t.Errorf("the log has %q:\n%s", not, logged)
				}
			}
			if tc.want == "companion" && strings.Contains(logged, "serving it from the rubric binary") {
				t.Errorf("the host fell back:\n%s", logged)
			}
			for _, level := range []string{"[WARN]", "[ERROR]"} {
				if strings.Contains(logged, level) {
					t.Errorf("starting the built-in logged above debug:\n%s", logged)
				}
			}
		})
	}
}

package clientconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes, under any of the names, give a file or an error,
// never a panic; a file has a server, and every server a name and either
// a transport or an error.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*/*.json")
	more, _ := filepath.Glob("testdata/*/.*/mcp.json")
	dot, _ := filepath.Glob("testdata/*/.mcp.json")
	for _, p := range append(append(paths, more...), dot...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint8(0))
		}
	}
	f.Add([]byte(`{"servers": {"a": {"command": "${env:X}", /* c */}}}`), uint8(3))
	f.Add([]byte(`{"mcpServers": {"a": {"url": "${A:-${B}}"}}}`), uint8(1))
	names := []string{"claude_desktop_config.json", ".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", "x.json"}
	lookup := func(k string) (string, bool) { return "v", k == "X" || k == "A" }
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		name := names[int(which)%len(names)]
		file, err := Parse(name, data, Options{LookupEnv: lookup, Home: "/h", Workspace: "/w"})
		if err != nil {
			return
		}
		if len(file.Servers) == 0 {
			t.Fatal("a file without servers was accepted")
		}
		for _, s := range file.Servers {
			if s.Err == nil && s.Transport == "" {
				t.Fatalf("server %q has neither a transport nor an error", s.Name)
			}
		}
	})
}

// FuzzStripJSONC: blanking comments never moves a byte, so positions in
// errors stay true.
func FuzzStripJSONC(f *testing.F) {
	f.Add([]byte("{\"a\": 1, // c\n/* d\n*/ }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := stripJSONC(data)
		if len(out) != len(data) || bytes.Count(out, []byte{'\n'}) != bytes.Count(data, []byte{'\n'}) {
			t.Fatalf("stripJSONC moved bytes: %q -> %q", data, out)
		}
	})
}

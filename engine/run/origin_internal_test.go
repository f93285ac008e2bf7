package run

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

// TestLocalPaths: a command's origin keeps the program and arguments
// that name a file or folder below the folder it starts in, as given,
// and nothing else: not a flag, not a word that names nothing there,
// not an absolute path or one that climbs out (the layout of the
// machine a report was made on stays out of it).
func TestLocalPaths(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"servers/notes/main.go", "server.py", "-v"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		t    transport.Target
		want []string
	}{
		{"go run a folder", transport.Target{Location: "go", Args: []string{"run", "./servers/notes"}, Dir: dir}, []string{"./servers/notes"}},
		{"a script", transport.Target{Location: "python3", Args: []string{"server.py", "--port", "8080"}, Dir: dir}, []string{"server.py"}},
		{"the program itself", transport.Target{Location: "./servers/notes/main.go", Dir: dir}, []string{"./servers/notes/main.go"}},
		{"the folder itself", transport.Target{Location: "go", Args: []string{"run", "."}, Dir: dir}, []string{"."}},
		{"a flag that is also a file", transport.Target{Location: "node", Args: []string{"-v"}, Dir: dir}, nil},
		{"absolute and climbing", transport.Target{Location: "node", Args: []string{filepath.Join(dir, "server.py"), "../" + filepath.Base(dir) + "/server.py"}, Dir: dir}, nil},
		{"nothing there", transport.Target{Location: "npx", Args: []string{"@scope/server"}, Dir: dir}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := localPaths(c.t); !slices.Equal(got, c.want) {
				t.Errorf("localPaths = %q, want %q", got, c.want)
			}
		})
	}
}

package transport

import (
	"slices"
	"testing"
)

// TestCommandLine: a program of two words or more that is not found is a
// command line, split into the argument array meant; one word, or a
// path with a space that exists, is a program.
func TestCommandLine(t *testing.T) {
	none := func(string) bool { return false }
	for _, tc := range []struct {
		prog  string
		args  []string
		found func(string) bool
		want  []string
		whole bool
	}{
		{"npx -y @x/server", []string{"--stdio"}, none, []string{"npx", "-y", "@x/server", "--stdio"}, true},
		{"node\tserver.js", nil, none, []string{"node", "server.js"}, true},
		{"npx", []string{"-y"}, none, nil, false},
		{" npx ", nil, none, nil, false},
		{"/opt/My Server/bin", nil, func(p string) bool { return p == "/opt/My Server/bin" }, nil, false},
		// An absolute path with a space, for a program not (yet) here, is
		// a path: split at its space, the advice would break it.
		{"/opt/My Server/bin/server", nil, none, nil, false},
		{`C:\Program Files\nodejs\npx.cmd`, []string{"-y", "x"}, none, nil, false},
		{"c:/Program Files/node.exe", nil, none, nil, false},
		// An absolute program followed by its arguments is a command line.
		{"/usr/bin/npx -y x", nil, func(p string) bool { return p == "/usr/bin/npx" }, []string{"/usr/bin/npx", "-y", "x"}, true},
	} {
		got, whole := CommandLine(tc.prog, tc.args, tc.found)
		if whole != tc.whole || !slices.Equal(got, tc.want) {
			t.Errorf("CommandLine(%q, %q) = %q, %v; want %q, %v", tc.prog, tc.args, got, whole, tc.want, tc.whole)
		}
	}
}

// TestIsAbsPath: a path from the root on any system.
func TestIsAbsPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/usr/bin/node": true, `\\server\share`: true, `C:\x`: true, "d:/x": true,
		"npx": false, "./server": false, "C:": false, "1:/x": false, "server /x": false,
	} {
		if got := IsAbsPath(p); got != want {
			t.Errorf("IsAbsPath(%q) = %v, want %v", p, got, want)
		}
	}
}

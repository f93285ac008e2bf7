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
	} {
		got, whole := CommandLine(tc.prog, tc.args, tc.found)
		if whole != tc.whole || !slices.Equal(got, tc.want) {
			t.Errorf("CommandLine(%q, %q) = %q, %v; want %q, %v", tc.prog, tc.args, got, whole, tc.want, tc.whole)
		}
	}
}

package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

// TestLinkerValues: what a release build sets with -X wins over what the
// build information says, and a tag's "v" is dropped so that the version
// reads the same as the archive names.
func TestLinkerValues(t *testing.T) {
	for _, c := range []struct {
		version, commit         string
		wantVersion, wantCommit string
	}{
		{"1.2.0", "0123abc", "1.2.0", "0123abc"},
		{"v1.2.0", "0123abc", "1.2.0", "0123abc"},
		{"0.0.0-SNAPSHOT-0123abc", "0123abc", "0.0.0-SNAPSHOT-0123abc", "0123abc"},
	} {
		t.Run(c.version, func(t *testing.T) {
			oldV, oldC := version, commit
			t.Cleanup(func() { version, commit = oldV, oldC })
			version, commit = c.version, c.commit
			if got := Version(); got != c.wantVersion {
				t.Errorf("Version() = %q, want %q", got, c.wantVersion)
			}
			if got := Commit(); got != c.wantCommit {
				t.Errorf("Commit() = %q, want %q", got, c.wantCommit)
			}
		})
	}
}

// TestWithoutLinkerValues: a test binary is built from a work tree, so it
// is "dev"; its commit is whatever go build stamped, or "unknown" under
// -buildvcs=false, never empty.
func TestWithoutLinkerValues(t *testing.T) {
	if got := Version(); got != "dev" {
		t.Errorf("Version() = %q, want dev", got)
	}
	if Commit() == "" {
		t.Error("Commit() is empty")
	}
	if got := GoVersion(); !strings.HasPrefix(got, runtime.Version()+" ") || !strings.HasSuffix(got, runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("GoVersion() = %q", got)
	}
}

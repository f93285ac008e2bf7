package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
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

// TestID: the ID is stable within a binary and changes with the version
// or the commit the linker set, so a companion of another release or
// commit is told apart from one of this build.
func TestID(t *testing.T) {
	id := ID()
	if id != ID() {
		t.Fatalf("ID() is not stable: %q, then %q", id, ID())
	}
	if !strings.HasPrefix(id, Version()+" "+Commit()+" "+GoVersion()+" ") {
		t.Errorf("ID() = %q does not start with the version, commit and Go", id)
	}
	oldV, oldC := version, commit
	t.Cleanup(func() { version, commit = oldV, oldC })
	seen := map[string]string{id: "this build"}
	for _, vc := range [][2]string{{"1.2.0", "0123abc"}, {"1.2.1", "0123abc"}, {"1.2.0", "4567def"}} {
		version, commit = vc[0], vc[1]
		got := ID()
		if prev, dup := seen[got]; dup {
			t.Errorf("version %s commit %s has the ID of %s: %q", vc[0], vc[1], prev, got)
		}
		seen[got] = vc[0] + " " + vc[1]
	}
}

// TestSameBuild: a binary is of its own build, the go command of
// another, and a file that is no Go binary is an error naming it.
func TestSameBuild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		a, b    string
		want    bool
		wantErr string
	}{
		{name: "itself", a: exe, b: exe, want: true},
		{name: "the go command", a: exe, b: goTool, want: false},
		{name: "a script", a: exe, b: script, wantErr: "reading the build information of " + script},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SameBuild(tc.a, tc.b)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("SameBuild: error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("SameBuild = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

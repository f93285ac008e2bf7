// Package buildinfo says which rubric this is: the release it was built
// as, the commit it was built from and the Go that compiled it.
//
// A release build sets version and commit with the linker
// (-X github.com/rubricmcp/rubric/internal/buildinfo.version=1.2.0, the
// same for commit; see .goreleaser.yaml); go install of a tagged module
// leaves the module's version in the build information instead, and a
// build from a work tree is "dev".
package buildinfo

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// Set by the linker in release builds; empty otherwise.
var (
	version string
	commit  string
)

// Version returns the release version (without a leading "v"), the main
// module's version, or "dev".
func Version() string {
	if version != "" {
		return strings.TrimPrefix(version, "v")
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Commit returns the git commit the binary was built from: the one the
// linker was given, else the one go build stamped (vcs.revision, with
// "-dirty" for a modified work tree), else "unknown".
func Commit() string {
	if commit != "" {
		return commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev string
		var dirty bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if dirty {
				rev += "-dirty"
			}
			return rev
		}
	}
	return "unknown"
}

// GoVersion returns the version of Go that compiled the binary, with its
// target: "go1.26.0 linux/amd64".
func GoVersion() string {
	return runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// ID names this build for a binary that must match another of the same
// build (the host and a built-in's companion, see
// plugins/protocol.BuildEnv): the version, the commit, the Go that
// compiled it and a digest of the build settings go build recorded
// (flags, target, VCS state). Two binaries built from one commit by one
// command have the same ID; from a modified work tree, the ID cannot
// tell two sets of changes to one commit apart.
func ID() string {
	h := sha256.New()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			h.Write([]byte(s.Key + "=" + s.Value + "\n"))
		}
	}
	return Version() + " " + Commit() + " " + GoVersion() + " " + hex.EncodeToString(h.Sum(nil)[:8])
}

// SameBuild reports whether the Go binaries at paths a and b are of one
// build as ID tells builds apart: the same Go, main module version and
// build settings (which hold the linker flags that set version and
// commit). Their main packages may differ: rubric and a companion of its
// build are two programs. It fails when either file is not a Go binary
// that records its build information.
func SameBuild(a, b string) (bool, error) {
	x, err := buildinfo.ReadFile(a)
	if err != nil {
		return false, fmt.Errorf("reading the build information of %s: %w", a, err)
	}
	y, err := buildinfo.ReadFile(b)
	if err != nil {
		return false, fmt.Errorf("reading the build information of %s: %w", b, err)
	}
	return x.GoVersion == y.GoVersion && x.Main.Version == y.Main.Version &&
		slices.Equal(x.Settings, y.Settings), nil
}

// Package buildinfo says which rubric this is: the module version the
// binary was built from, or "dev" for a build from a work tree.
package buildinfo

import "runtime/debug"

// Version returns the main module's version, or "dev".
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

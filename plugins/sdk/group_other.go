//go:build !linux

package sdk

// endGroupOnTerm does nothing where the host cannot give a plugin a
// process group and a parent-death signal.
func endGroupOnTerm() {}

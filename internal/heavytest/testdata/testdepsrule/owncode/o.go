// Package owncode reads a node_modules it is given, and has tests.
package owncode

import "path/filepath"

// Bin is a package's executable under dir.
func Bin(dir string) string { return filepath.Join(dir, "node_modules", ".bin") }

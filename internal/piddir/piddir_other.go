//go:build !unix

package piddir

import "os"

// Alive reports every process as running where this package cannot ask:
// nothing is swept there.
func Alive(int) bool { return true }

func ownedByMe(os.FileInfo) bool { return false }

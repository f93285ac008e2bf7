// Package piddir makes temporary directories named with the id of the
// process that made them, and removes those whose process has died: what
// a process killed with SIGKILL could not clean up (plugin sockets, a
// git worktree) is then cleaned up by the next process that looks.
package piddir

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Make creates a new directory in parent (os.TempDir() when "") named
// prefix, this process's id, "-" and a random suffix: "rubric-plugins-"
// gives rubric-plugins-4242-1234567.
func Make(parent, prefix string) (string, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	return os.MkdirTemp(parent, fmt.Sprintf("%s%d-", prefix, os.Getpid()))
}

// Owner returns the id of the process that made the directory named
// name with prefix, and false when name is not such a directory's name.
func Owner(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// Sweep removes the directories in parent (os.TempDir() when "") that
// Make made with prefix for a process that is no longer running, and
// returns their paths. before, when not nil, is called with each one
// before it is removed (to undo what points into it). A directory
// another user owns, or that cannot be removed, is left as it is.
func Sweep(parent, prefix string, before func(dir string)) []string {
	if parent == "" {
		parent = os.TempDir()
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, ok := Owner(e.Name(), prefix)
		if !ok || !e.IsDir() || pid == os.Getpid() || Alive(pid) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if info, err := e.Info(); err != nil || !ownedByMe(info) {
			continue
		}
		if before != nil {
			before(dir)
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

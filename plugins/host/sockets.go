package host

import (
	"os"

	"github.com/rubricmcp/rubric/internal/piddir"
)

// socketPrefix names the directories plugins put their unix sockets in,
// one per host: $TMPDIR/rubric-plugins-PID-N, where PID is rubric's.
// go-plugin would otherwise leave a plugin's socket in $TMPDIR itself
// when rubric is killed and cannot end its plugins; a directory named
// with rubric's id is removed by the next rubric once that id is dead.
const socketPrefix = "rubric-plugins-"

// maxSocketPath is the longest socket path the system takes (sun_path
// holds 108 bytes on Linux, 104 on macOS), less the file name a plugin
// makes in the directory ("plugin" and up to 10 digits).
const maxSocketPath = 104 - len("/plugin4294967295")

// socketDir returns the directory this host's plugins put their sockets
// in, made (and the stale ones of dead rubric processes removed) at the
// first call; "" leaves the sockets to go-plugin's default, $TMPDIR.
func (h *Host) socketDir() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.socketsMade {
		return h.sockets
	}
	h.socketsMade = true
	// The directories of rubric processes that ended without removing
	// theirs are swept on the side: reading TMPDIR held up the first
	// plugin's start (by half a millisecond with 300 entries in it, more
	// with more), for nothing this host needs. Close waits for the sweep (started here
	// under h.mu only while the host is open, so before Close waits).
	if !h.closed {
		h.sweeping.Go(func() {
			for _, dir := range piddir.Sweep("", socketPrefix, nil) {
				h.log.Debug("removed the plugin sockets of a rubric that ended without cleaning up", "dir", dir)
			}
		})
	}
	// The directory's name adds up to 31 bytes to the path: a TMPDIR
	// too long for it keeps go-plugin's default.
	if len(os.TempDir())+len("/"+socketPrefix+"4294967295-4294967295") > maxSocketPath {
		return ""
	}
	dir, err := piddir.Make("", socketPrefix)
	if err != nil {
		h.log.Debug("plugin sockets stay in TMPDIR", "error", err)
		return ""
	}
	h.sockets = dir
	return dir
}

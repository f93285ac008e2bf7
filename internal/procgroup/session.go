package procgroup

import (
	"crypto/rand"
	"encoding/hex"
)

// MarkEnv is the environment variable that marks the processes of one
// session: a spawned server gets it, with a value of its own, and every
// process the server starts inherits it, including one that leaves the
// process group with setsid(), which KillGroup cannot reach.
const MarkEnv = "RUBRIC_SESSION"

// Mark returns a new MarkEnv=value entry for a session's environment, to
// give KillMarked once the session ends.
func Mark() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return MarkEnv + "=" + hex.EncodeToString(b)
}

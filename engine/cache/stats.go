package cache

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/transport"
)

// Write writes st as rubric cache stats prints it: indented JSON, or
// one line per count.
func (st Stats) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	_, err := fmt.Fprintf(w, "cache:   %s\nanswers: %d\nprompts: %d\nsize:    %s\n", st.Dir, st.Answers, st.Prompts, transport.Measured(st.Bytes))
	return err
}

// WriteRemoved writes st, what Clear removed, as one sentence.
func (st Stats) WriteRemoved(w io.Writer) error {
	_, err := fmt.Fprintf(w, "removed %d answers and %d prompts (%s) from %s\n", st.Answers, st.Prompts, transport.Measured(st.Bytes), st.Dir)
	return err
}

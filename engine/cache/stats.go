package cache

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/words"
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
	if err == nil && len(st.Others) > 0 {
		_, err = fmt.Fprintf(w, "other:   %s\n", st.othersLine())
	}
	return err
}

// WriteRemoved writes st, what Clear removed, as one sentence.
func (st Stats) WriteRemoved(w io.Writer) error {
	_, err := fmt.Fprintf(w, "removed %d answers and %d prompts (%s) from %s\n", st.Answers, st.Prompts, transport.Measured(st.Bytes), st.Dir)
	if err == nil && len(st.Others) > 0 {
		_, err = fmt.Fprintf(w, "left %s\n", st.othersLine())
	}
	return err
}

// othersLine names the files that are not cache entries.
func (st Stats) othersLine() string {
	n := len(st.Others)
	return fmt.Sprintf("%s that %s not cache entries: %s", words.Count(n, "file"), words.Pick(n, "is", "are"), words.List(st.Others, 5))
}

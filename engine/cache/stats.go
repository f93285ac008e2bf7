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
	if err == nil && len(st.Batches) > 0 {
		_, err = fmt.Fprintf(w, "batches: %s\n", st.batchesLine())
	}
	if err == nil && len(st.Calibrations) > 0 {
		_, err = fmt.Fprintf(w, "calibrations: %s\n", st.calibrationsLine())
	}
	return err
}

// WriteRemoved writes st, what Clear removed, as one sentence: "removed
// 3 answers and 1 prompt, 2 KiB (2048 bytes), from DIR".
func (st Stats) WriteRemoved(w io.Writer) error {
	_, err := fmt.Fprintf(w, "removed %s and %s, %s, from %s\n", words.Count(st.Answers, "answer"), words.Count(st.Prompts, "prompt"), transport.Measured(st.Bytes), st.Dir)
	if err == nil && len(st.Others) > 0 {
		_, err = fmt.Fprintf(w, "left %s\n", st.othersLine())
	}
	if err == nil && len(st.Batches) > 0 {
		_, err = fmt.Fprintf(w, "kept %s\n", st.batchesLine())
	}
	if err == nil && len(st.Calibrations) > 0 {
		_, err = fmt.Fprintf(w, "kept the notes of %s\n", st.calibrationsLine())
	}
	return err
}

// calibrationsLine names the marks of the calibrations stopped before
// they were written.
func (st Stats) calibrationsLine() string {
	n := len(st.Calibrations)
	names := make([]string, n)
	for i, c := range st.Calibrations {
		names[i] = fmt.Sprintf("%s (--out %s)", c.Mark, c.Out)
	}
	return fmt.Sprintf("%s stopped before %s written: the same calibrate command run again takes %s up; remove %s mark to start afresh: %s",
		words.Count(n, "calibration"), words.Pick(n, "it was", "they were"), words.Pick(n, "it", "each"), words.Pick(n, "its", "a calibration's"), words.List(names, 5))
}

// batchesLine names the records of the batches left running.
func (st Stats) batchesLine() string {
	n := len(st.Batches)
	names := make([]string, n)
	for i, b := range st.Batches {
		id := b.ID
		if id == "" {
			id = "not yet known"
		}
		names[i] = fmt.Sprintf("%s (id %s, %s)", b.Path, id, words.Count(b.Questions, "question"))
	}
	return fmt.Sprintf("%s of %s left running by a stopped --batch run, paid for: the same command run again collects %s; %s",
		words.Count(n, "record"), words.Pick(n, "a batch", "batches"), words.Pick(n, "it", "them"), words.List(names, 5))
}

// othersLine names the files that are not cache entries.
func (st Stats) othersLine() string {
	n := len(st.Others)
	return fmt.Sprintf("%s that %s not cache entries: %s", words.Count(n, "file"), words.Pick(n, "is", "are"), words.List(st.Others, 5))
}

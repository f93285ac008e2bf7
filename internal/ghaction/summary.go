// Package ghaction is what rubric's GitHub Action does beyond running
// rubric: it appends a report to the job summary under GitHub's size
// limit, keeps one pull-request comment per report up to date through
// the REST API, and reads the event that started the workflow. The shell
// steps of action.yml call it through rubric github.
package ghaction

import (
	"bytes"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/boundedread"
)

// SummaryLimit is the most GitHub takes of one step's summary (1024k):
// a larger file is not shown at all, so a summary is kept strictly
// below it.
const SummaryLimit = 1 << 20

// CommentLimit is the most characters GitHub accepts in a comment body.
const CommentLimit = 65536

// Cut returns text whole when it fits in limit bytes; otherwise it keeps
// the longest run of whole lines that fits together with a note saying
// how much of the text was kept and where the rest is, and appends that
// note. A single line longer than the room is cut at a UTF-8 boundary;
// when not even the note fits, nothing is kept.
func Cut(text []byte, limit int, rest string) (out []byte, cut bool) {
	if len(text) <= limit {
		return text, false
	}
	note := func(kept int) string {
		return fmt.Sprintf("\n\n> [!NOTE]\n> This report was cut to its first %d of %d bytes to stay within GitHub's limit; %s.\n", kept, len(text), rest)
	}
	// The note is measured with as many digits as the room could take:
	// the count it finally says has no more.
	room := limit - len(note(limit))
	if room < 0 {
		// Not even the note fits: nothing is added.
		return nil, true
	}
	keep := text[:room]
	if i := bytes.LastIndexByte(keep, '\n'); i >= 0 {
		keep = keep[:i+1]
	} else {
		for len(keep) > 0 && !utf8.Valid(keep) {
			keep = keep[:len(keep)-1]
		}
	}
	out = append(bytes.Clone(keep), note(len(keep))...)
	return out, true
}

// AppendSummary appends text to the step summary file at path, cut so
// that the whole file stays strictly below SummaryLimit (what earlier
// commands of the step wrote counts too). It says whether text was cut.
func AppendSummary(path string, text []byte, rest string) (cut bool, err error) {
	if path == "" {
		return false, fmt.Errorf("GITHUB_STEP_SUMMARY is not set: run this inside a GitHub Actions step")
	}
	var used int64
	if st, err := os.Stat(path); err == nil {
		used = st.Size()
	}
	room := SummaryLimit - 1 - int(used)
	if room <= 0 {
		return len(text) > 0, nil
	}
	text, cut = Cut(text, room, rest)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.Write(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return false, fmt.Errorf("append to the job summary GITHUB_STEP_SUMMARY (%s): %s; GitHub Actions sets it to a file of the step's, so run this inside a step, or point it at a file that can be written", path, boundedread.Reason(err))
	}
	return cut, nil
}

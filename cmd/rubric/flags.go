package main

import (
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/runflags"
)

// flags are the settings of cmd, as internal/runflags reads them.
func (a *app) flags(cmd *cobra.Command) runflags.Flags {
	return runflags.Flags{Cmd: cmd, V: a.v, Local: a.local}
}

// writeOutputs writes the report to the outputs; every file is written
// atomically, before the terminal summary. When only the summary cannot
// be written (a full disk behind > file), the error is a *streamError:
// the files are whole, and the run keeps them.
func (a *app) writeOutputs(rep *report.Report, format writers.Writer, failUnder *rubric.Threshold) error {
	o, opt := runflags.Outputs(a.v, format, a.stdout)
	opt.FailUnder = failUnder
	stream := &recorder{w: a.stdout}
	err := o.Write(stream, rep, opt)
	if err == nil || stream.err == nil {
		return err
	}
	var files []string
	for _, path := range o.Files {
		if path != "" {
			files = append(files, path)
		}
	}
	if len(files) == 0 {
		return err
	}
	sort.Strings(files)
	return &streamError{err: err, files: files}
}

// recorder is a stream that remembers its first write error.
type recorder struct {
	w   io.Writer
	err error
}

func (r *recorder) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// streamError is a terminal summary that could not be written after the
// report's files were.
type streamError struct {
	err   error
	files []string
}

func (e *streamError) Error() string {
	return e.err.Error() + "; the report is in " + strings.Join(e.files, ", ")
}

func (e *streamError) Unwrap() error { return e.err }

package main

import (
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
// atomically.
func (a *app) writeOutputs(rep *report.Report, format writers.Writer, failUnder *rubric.Threshold) error {
	o, opt := runflags.Outputs(a.v, format, a.stdout)
	opt.FailUnder = failUnder
	return o.Write(a.stdout, rep, opt)
}

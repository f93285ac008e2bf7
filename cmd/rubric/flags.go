package main

import (
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/runflags"
)

// The flags of the commands that read servers: where a target is, which
// client configuration to read, who judges (see internal/runflags).
var (
	targetFlags = runflags.AddTarget
	configFlags = runflags.AddConfig
	judgeFlags  = runflags.AddJudge
)

// flags are the settings of cmd, as internal/runflags reads them.
func (a *app) flags(cmd *cobra.Command) runflags.Flags {
	return runflags.Flags{Cmd: cmd, V: a.v, Local: a.local}
}

// resolveTarget is the target the arguments name (runflags.Flags.Target).
func (a *app) resolveTarget(cmd *cobra.Command, args []string) (string, transport.Target, error) {
	return a.flags(cmd).Target(args)
}

// oneTarget is the one server a run reads (runflags.Flags.OneTarget).
func (a *app) oneTarget(cmd *cobra.Command, args []string) (string, transport.Target, error) {
	return a.flags(cmd).OneTarget(args)
}

// reportOutputs are the files of --out and each writer's flag.
func (a *app) reportOutputs() []run.Flagged { return runflags.ReportOutputs(a.v) }

// writeOutputs writes the report to the outputs; every file is written
// atomically.
func (a *app) writeOutputs(rep *report.Report, format writers.Writer, failUnder *rubric.Threshold) error {
	o, opt := runflags.Outputs(a.v, format, a.stdout)
	opt.FailUnder = failUnder
	return o.Write(a.stdout, rep, opt)
}

package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/rubrics"

	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/runflags"
)

const defaultRubric = "schema-quality"

func (a *app) scoreCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "score [flags] TARGET | -- COMMAND [ARGS...]",
		Short:   "Score a server's tools and print grades and a fix list",
		Long:    help("score"),
		Example: help("score-example"),
		RunE:    a.runScore,
	}
	f := cmd.Flags()
	f.String("rubric", defaultRubric, "built-in rubric name or path of a .hcl file")
	f.String("format", "text", "output format: "+writers.Names())
	f.StringP("out", "o", "", "write the output to this file instead of standard output (- is standard output)")
	for _, w := range writers.All {
		if w.Flag != "" {
			f.String(w.Flag, "", "also write "+w.What+" to this file")
		}
	}
	f.String("sarif-category", "", "the GitHub code scanning category of the SARIF's runs (automationDetails.id), which upload-sarif's own category input cannot change once set (default: rubric/RUBRIC/SERVER; with --config-file, CATEGORY/RUBRIC/SERVER for each run); needs --sarif or --format sarif")
	f.String("fail-under", "", "exit 1 when the overall score is below this grade (B) or score (75)")
	f.Int("max-issues", 20, "issues shown in the terminal fix list (0 for all)")
	f.Int("max-rows", 40, "tools shown in the terminal table, worst first (0 for all)")
	f.Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	f.String("failed", "", "where to write failed.json when the scan cannot complete (default: failed.json beside --out or --json, when one is given)")
	f.String("set-rubric", defaultSetRubric, "with --config-file, the rubric of the installed set (every server's tools together)")
	runflags.AddTarget(cmd)
	runflags.AddConfig(cmd)
	runflags.AddJudge(cmd)
	runflags.AddBatch(cmd)
	return cmd
}

// scoreInputs are the files a score reads, which no output may name:
// the target, the rubric's file, the answers and the config.
func (a *app) scoreInputs(target, rubricFile string) []run.Flagged {
	return []run.Flagged{{Flag: "the target", Path: target}, {Flag: "--rubric", Path: rubricFile}, {Flag: "--answers", Path: a.v.GetString("answers")}, {Flag: "--config", Path: a.v.ConfigFileUsed()}}
}

// dropEarlierReports removes the reports an earlier run wrote to this
// run's outputs when the run ends before it reads the server (a rubric
// that does not load, a --fail-under it does not take), as a run that
// fails later does: a CI job must not read the old grade beside the new
// failure. Nothing is removed unless the outputs pass the checks a run
// makes of them (none is an input, such as the target or --rubric).
func (a *app) dropEarlierReports(cmd *cobra.Command, args []string) {
	v := a.v
	_, target, _, err := a.flags(cmd).OneTarget(args)
	if err != nil || v.GetString("config-file") != "" {
		return
	}
	reports := runflags.ReportOutputs(v)
	if run.CheckOutputs(a.scoreInputs(target.Location, v.GetString("rubric")), reports, run.Flagged{}) != nil {
		return
	}
	run.RemoveEarlierReports(a.logger(), run.Paths(reports))
}

func (a *app) runScore(cmd *cobra.Command, args []string) error {
	v := a.v
	a.batches = true // --batch collects a batch left running: refuse to ask it again
	format, err := a.outFormat(cmd)
	if err != nil {
		return err
	}
	if err := runflags.CheckSARIFCategory(v, cmd.Flags(), format.Name); err != nil {
		return err
	}
	a.early = a.flags(cmd).StartEarly(a.host(), args) // starts while the rubric compiles
	defer a.early.Close()
	r, err := rubrics.FindContext(cmd.Context(), v.GetString("rubric"))
	if err != nil {
		a.dropEarlierReports(cmd, args)
		return &localconfig.ValueError{Key: "rubric", Err: err}
	}
	threshold, err := r.Threshold(v.GetString("fail-under"))
	if err != nil {
		a.dropEarlierReports(cmd, args)
		return err
	}
	if doubt := r.Doubt(threshold); doubt != "" {
		fmt.Fprintf(a.stderr, "rubric: warning: %s\n", localconfig.Blame(v, cmd.Flags(), "fail-under", doubt))
	}
	if v.GetString("config-file") != "" && v.GetString("server") == "" {
		return a.runServers(cmd, args, r, threshold, format)
	}
	name, target, secrets, err := a.flags(cmd).OneTarget(args)
	if err != nil {
		return err
	}
	// A failed scan removes the reports an earlier one wrote; --record
	// is an output as well, but not a report. No output may be an input.
	reports := runflags.ReportOutputs(a.v)
	inputs := a.scoreInputs(target.Location, r.File)
	failed := run.FailurePath(v.GetString("failed"), v.GetString("out"), v.GetString("json"))
	if err := run.CheckOutputs(inputs, append(slices.Clone(reports), run.Flagged{Flag: "--record", Path: v.GetString("record")}), run.Flagged{Flag: "--failed", Path: failed}); err != nil {
		return err
	}
	sess, done, err := a.session(true)
	if err != nil {
		return err
	}
	defer done()
	sess.Hide(secrets...)
	if err := a.noteUnusedJudge(cmd, sess, r, false); err != nil {
		return err
	}
	// A summary that cannot be written fails the command, but not the
	// run: the report's files are whole and stay.
	var stream *streamError
	rep, err := sess.Scan(cmd.Context(), run.Source{Transport: name, Target: target}, r, run.ScanOptions{
		Record: v.GetString("record"),
		Write: func(rep *report.Report) error {
			rep.Explain = explainer(cmd.Context(), r, rep)
			err := a.writeOutputs(rep, format, threshold)
			if errors.As(err, &stream) {
				return nil
			}
			return err
		},
		Failed:  failed,
		Outputs: run.Paths(reports),
	})
	if err != nil {
		return err
	}
	if stream != nil {
		return stream
	}
	return failUnder(rep, threshold)
}

// outFormat is the format of score's main output: --format when it is
// given (on the command line, in the environment or a config file),
// else the one --out's extension names (r.json is JSON), else text.
func (a *app) outFormat(cmd *cobra.Command) (writers.Writer, error) {
	return writers.ForOut(a.v.GetString("format"), a.formatGiven(cmd), a.v.GetString("out"))
}

// formatGiven says whether --format was given: on the command line, in
// the environment or in a config file.
func (a *app) formatGiven(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("format") || localconfig.Origin(a.v, cmd.Flags(), "format") != ""
}

// failUnder exits 1 when the report's overall score is below t.
func failUnder(rep *report.Report, t *rubric.Threshold) error {
	if msg := rep.Below(t); msg != "" {
		return &exitError{code: exitBelow, msg: msg}
	}
	return nil
}

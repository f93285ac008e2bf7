package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/serverset"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/runflags"
)

// defaultSetRubric scores the installed set of a client configuration.
const defaultSetRubric = "toolset"

// runServers scores every server of --config-file with r, each its own
// report, and their installed set with --set-rubric; it writes one
// document (engine/report/serverset) and exits 2, naming them, when a
// server could not be scored.
func (a *app) runServers(cmd *cobra.Command, args []string, r *rubric.Rubric, threshold *rubric.Threshold, format writers.Writer) error {
	// Refused before any server starts, not after every one was scored.
	o, _ := runflags.Outputs(a.v, format, a.stdout)
	if err := serverset.CheckOutputs(o); err != nil {
		if !a.formatGiven(cmd) && o.Out != "" && !slices.Contains(serverset.Formats, format.Name) {
			// The format is --out's extension's, not a --format given.
			return fmt.Errorf("--out %s is written as %s, and a client configuration's servers are written as %s only: give --out a name that ends in .txt, .json, .md or .sarif", o.Out, format.Name, strings.Join(serverset.Formats, ", "))
		}
		return err
	}
	cr, err := a.flags(cmd).ReadConfigRun(args, r)
	if err != nil {
		return err
	}
	sess, done, err := a.session(true)
	if err != nil {
		return err
	}
	defer done()
	sess.Hide(cr.File.Secrets()...)
	doc, err := sess.ScanConfig(cmd.Context(), cr.File.Path, cr.Servers, r, cr.SetRubric, run.ServersOptions{Concurrency: a.v.GetInt("server-concurrency"), Disabled: cr.File.Disabled})
	if err != nil {
		return err
	}
	if err := a.writeServers(doc, format); err != nil {
		return err
	}
	if failed := doc.Failed(); len(failed) > 0 {
		return &exitError{code: exitInvalid, msg: fmt.Sprintf("%d of %s could not be scored: %s", len(failed), report.Plural(len(doc.Servers), "server"), strings.Join(failed, ", "))}
	}
	below := doc.Below(threshold)
	if len(below) > 0 {
		return &exitError{code: exitBelow, msg: strings.Join(below, "; ")}
	}
	return nil
}

// writeServers writes the document to --out or standard output in
// --format, then to each extra file (--json, --markdown, --sarif).
func (a *app) writeServers(doc *serverset.Document, format writers.Writer) error {
	o, opt := runflags.Outputs(a.v, format, a.stdout)
	return serverset.WriteOutputs(a.stdout, doc, o, opt)
}

package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/rubrics"

	"github.com/rubricmcp/rubric/internal/runflags"
)

// exitMoved is calibrate --check's status when the record no longer
// matches the rubric, the judge or the capture.
const exitMoved = 1

// calibrationRubric is the rubric calibrate scores with unless told:
// registries publish TDQS.
const calibrationRubric = "tdqs"

func (a *app) calibrateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "calibrate CAPTURE --out DIR [--server TARGET | -- COMMAND] | calibrate --check RECORD",
		Short:   "Score a registry capture several times and set the medians against the published scores",
		Long:    help("calibrate"),
		Example: help("calibrate-example"),
		RunE:    a.runCalibrate,
	}
	f := cmd.Flags()
	f.String("rubric", calibrationRubric, "built-in rubric name or path of a .hcl file")
	f.Int("runs", 3, "how many times the capture is scored; per tool and measure, the median is compared")
	f.StringP("out", "o", "", "the directory the record, the summary, the plot and each run's files go to")
	f.String("check", "", "check a calibration record against the rubric, judge and capture as they are now")
	f.String("server", "", "the server's own target (a file or URL), to compare its definitions with the capture's")
	f.String("html", "", "also write the calibration as one HTML page (the plot and the tables) to this file")
	f.StringArray("judge", nil, "judge plugin, a name or the path of an executable, with its own settings if need be (openai:model=M,base_url=URL) (default: heuristic); give it twice to calibrate two judges on the capture and set them against each other")
	runflags.AddTarget(cmd)
	runflags.AddJudge(cmd)
	runflags.AddBatch(cmd)
	_ = f.MarkHidden("record") // every run is recorded into --out
	return cmd
}

func (a *app) runCalibrate(cmd *cobra.Command, args []string) error {
	v := a.v
	if path := v.GetString("check"); path != "" {
		if len(args) > 0 {
			return fmt.Errorf("--check takes no capture or command: the record names its capture")
		}
		return a.checkCalibration(cmd, path)
	}
	r, c, err := a.flags(cmd).Calibration(args)
	if err != nil {
		return err
	}
	judges := v.GetStringSlice("judge")
	switch len(judges) {
	case 0, 1:
		if len(judges) == 1 {
			v.Set("judge", judges[0])
		} else {
			v.Set("judge", "")
		}
	case 2:
		return a.calibrateTwo(cmd, r, c, judges)
	default:
		return fmt.Errorf("--judge given %d times: calibrate one judge, or two to set against each other", len(judges))
	}
	rec, err := a.calibrateOne(cmd, r, c)
	if err != nil {
		return err
	}
	if err := calibrate.WriteText(a.stdout, rec); err != nil {
		return err
	}
	if path := v.GetString("html"); path != "" {
		if err := html.WriteCalibrationFile(path, rec); err != nil {
			return err
		}
	}
	fmt.Fprintf(a.stdout, "\nwritten to %s: %s, %s, %s, %s, and each run's answers and report\n", c.Out, run.RecordFile, run.MarkdownFile, run.PlotPNG, run.PlotSVG)
	return nil
}

// calibrateOne calibrates the judge "judge" names.
func (a *app) calibrateOne(cmd *cobra.Command, r *rubric.Rubric, c run.Calibration) (*calibrate.Record, error) {
	sess, done, err := a.session(true)
	if err != nil {
		return nil, err
	}
	defer done()
	return sess.Calibrate(cmd.Context(), r, c)
}

// calibrateTwo calibrates two judges on one capture and prints each
// one's calibration and their agreement.
func (a *app) calibrateTwo(cmd *cobra.Command, r *rubric.Rubric, c run.Calibration, judges []string) error {
	recs, bt, err := run.CalibrateTwo(cmd.Context(), r, c, [2]string{judges[0], judges[1]}, func(_ context.Context, j string, r *rubric.Rubric, c run.Calibration) (*calibrate.Record, error) {
		a.v.Set("judge", j)
		return a.calibrateOne(cmd, r, c)
	})
	if err != nil {
		return err
	}
	if err := calibrate.WriteBetweenText(a.stdout, recs, bt); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "\nwritten to %s: judge-1/, judge-2/, %s, %s\n", c.Out, run.BetweenJSON, run.BetweenMarkdown)
	return nil
}

// checkCalibration compares a record with the rubric, judge and capture
// as they are now. Nothing is scored and the judge is asked nothing.
func (a *app) checkCalibration(cmd *cobra.Command, path string) error {
	rec, err := calibrate.Read(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	ref := run.RecordedRubric(rec, dir)
	if cmd.Flags().Changed("rubric") {
		ref = a.v.GetString("rubric")
	}
	r, err := rubrics.Find(ref)
	if err != nil {
		return err
	}
	cur, err := run.CheckCalibration(cmd.Context(), rec, path, r, a.host().PinnedSession)
	if err != nil {
		return err
	}
	if msg := rec.Check(path, cur); msg != "" {
		return &exitError{code: exitMoved, msg: msg}
	}
	fmt.Fprintln(a.stdout, cur.Matches(path))
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/rubrics"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/localconfig"
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
	runflags.Folder(f, "out")
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
	a.batches = true // --batch collects a batch left running: refuse to ask it again
	if path := v.GetString("check"); path != "" {
		if len(args) > 0 || cmd.ArgsLenAtDash() >= 0 {
			return fmt.Errorf("--check takes no capture or command: the record names its capture")
		}
		if err := checkOnlyFlags(cmd); err != nil {
			return err
		}
		return a.checkCalibration(cmd, path)
	}
	r, c, err := a.flags(cmd).Calibration(args)
	if err != nil {
		return err
	}
	judges := localconfig.List(v, "judge")
	page := v.GetString("html")
	if len(judges) == 2 && page != "" {
		return fmt.Errorf("--html writes one judge's calibration as a page, and two judges are calibrated: leave --html out (each judge's %s and the two judges' %s are written into %s), or calibrate one judge with --html", run.MarkdownFile, run.BetweenMarkdown, c.Out)
	}
	inputs := []run.Flagged{{Flag: "the capture", Path: c.CapturePath}, {Flag: "--rubric", Path: r.File}, {Flag: "--answers", Path: v.GetString("answers")}, {Flag: "--config", Path: v.ConfigFileUsed()}}
	// The record and each run's files may not be written over what the
	// calibration reads, nor the page over them.
	outputs := append([]run.Flagged{{Flag: "--html", Path: page}}, run.CalibrationOutputs(c, len(judges))...)
	if err := run.CheckOutputs(inputs, outputs, run.Flagged{}); err != nil {
		return err
	}
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
	a.warnCalibration(rec)
	if err := calibrate.WriteText(a.stdout, rec); err != nil {
		return err
	}
	if page != "" {
		if err := html.WriteCalibrationFile(page, rec); err != nil {
			return fmt.Errorf("the calibration is written to %s, but not the page: %w", c.Out, err)
		}
	}
	if a.spent != nil {
		// What this command paid: the runs a stopped calibration had
		// answered, taken up from the cache, cost nothing again.
		fmt.Fprintf(a.stdout, "\njudge calls: %s at the prices of %s\n", report.USD(a.spent.USD), a.spent.Prices)
	}
	fmt.Fprintf(a.stdout, "\nwritten to %s: %s, %s, %s, %s, and each run's answers and report\n", c.Out, run.RecordFile, run.MarkdownFile, run.PlotPNG, run.PlotSVG)
	if page != "" {
		fmt.Fprintf(a.stdout, "page: %s\n", page)
	}
	return nil
}

// checkFlags are the flags calibrate --check reads: the record names its
// capture, judge and runs, and --rubric checks it against another rubric.
var checkFlags = map[string]bool{"check": true, "rubric": true}

// checkOnlyFlags refuses, beside --check, the flags of a calibration
// that --check does not read, naming them.
func checkOnlyFlags(cmd *cobra.Command) error {
	var given []string
	local := cmd.LocalFlags()
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !checkFlags[f.Name] && local.Lookup(f.Name) != nil {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) == 0 {
		return nil
	}
	verb := "does"
	if len(given) > 1 {
		verb = "do"
	}
	return fmt.Errorf("%s %s not apply with --check: the record names its capture, judge and runs, and nothing is scored or written (give --rubric to check the record against another rubric)", strings.Join(given, ", "), verb)
}

// warnCalibration writes to stderr what the calibration left out of the
// published values, and why.
func (a *app) warnCalibration(rec *calibrate.Record) {
	for _, w := range rec.Warnings() {
		fmt.Fprintf(a.stderr, "rubric: warning: %s\n", w)
	}
}

// calibrateOne calibrates the judge "judge" names, and says what its
// calls cost when the model is priced.
func (a *app) calibrateOne(cmd *cobra.Command, r *rubric.Rubric, c run.Calibration) (*calibrate.Record, error) {
	sess, done, err := a.session(true)
	if err != nil {
		return nil, err
	}
	defer done()
	rec, err := sess.Calibrate(cmd.Context(), r, c)
	if err == nil {
		a.spent = sess.Spent()
	}
	return rec, err
}

// sharedJudgeFlags are the judge flags that go to each of two judges.
var sharedJudgeFlags = []string{"answers", "model", "base-url", "judge-option"}

// calibrateTwo calibrates two judges on one capture and prints each
// one's calibration and their agreement. Both judges are started before
// either is asked anything, so that one that cannot start stops the run
// before anything is written.
func (a *app) calibrateTwo(cmd *cobra.Command, r *rubric.Rubric, c run.Calibration, judges []string) error {
	var sessions [2]*run.Session
	for i, j := range judges {
		a.v.Set("judge", j)
		sess, done, err := a.session(true)
		if err != nil {
			return fmt.Errorf("judge %d (%s): %w", i+1, j, err)
		}
		defer done()
		sessions[i] = sess
	}
	// --max-cost is the command's budget: both judges spend from it.
	sessions[1].ShareBudget(sessions[0])
	// A rubric that asks nothing is calibrated without a judge, even when
	// one is named (Session.Calibrate): none is checked.
	if len(r.Questions) > 0 {
		for i, sess := range sessions {
			if err := sess.CheckJudge(r); err != nil {
				return a.judgeFailed(cmd, i, judges[i], err)
			}
		}
		for i, sess := range sessions {
			if _, err := sess.StartJudge(cmd.Context(), r); err != nil {
				return a.judgeFailed(cmd, i, judges[i], err)
			}
		}
	}
	recs, bt, err := run.CalibrateTwo(cmd.Context(), r, c, [2]string{judges[0], judges[1]}, func(ctx context.Context, i int, r *rubric.Rubric, c run.Calibration) (*calibrate.Record, error) {
		a.sess = sessions[i] // the session an interruption asks about
		return sessions[i].Calibrate(ctx, r, c)
	})
	if err != nil {
		return err
	}
	a.warnCalibration(recs[0])
	if err := calibrate.WriteBetweenText(a.stdout, recs, bt); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "\nwritten to %s: judge-1/, judge-2/, %s, %s\n", c.Out, run.BetweenJSON, run.BetweenMarkdown)
	return nil
}

// judgeFailed says that judge i+1 (ref) cannot start, and, when judge
// flags that go to both judges were given, how to give one judge its own.
func (a *app) judgeFailed(cmd *cobra.Command, i int, ref string, err error) error {
	var shared []string
	for _, name := range sharedJudgeFlags {
		if cmd.Flags().Changed(name) {
			shared = append(shared, "--"+name)
		}
	}
	msg := fmt.Sprintf("judge %d (%s): %v; nothing was calibrated", i+1, ref, err)
	if len(shared) > 0 {
		msg += fmt.Sprintf("\n%s goes to both judges: give a judge its own settings in its reference instead, as --judge replay:answers=FILE or --judge openai:model=M", strings.Join(shared, ", "))
	}
	return errors.New(msg)
}

// checkCalibration compares a record with the rubric, judge and capture
// as they are now; path is a record, the judges.json of two judges, or
// the directory calibrate --out wrote either into. Nothing is scored and
// the judge is asked nothing.
func (a *app) checkCalibration(cmd *cobra.Command, path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		switch {
		case isFile(filepath.Join(path, run.RecordFile)):
			path = filepath.Join(path, run.RecordFile)
		case isFile(filepath.Join(path, run.BetweenJSON)):
			path = filepath.Join(path, run.BetweenJSON)
		default:
			return fmt.Errorf("%s is a directory that holds no %s or %s: give the %s calibrate --out wrote, or the %s of two judges", path, run.RecordFile, run.BetweenJSON, run.RecordFile, run.BetweenJSON)
		}
	}
	rec, err := calibrate.Read(path)
	if errors.Is(err, calibrate.ErrTwoJudges) {
		return a.checkTwo(cmd, path)
	}
	if err != nil {
		return err
	}
	line, err := a.checkRecord(cmd, path, rec)
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, line)
	return nil
}

// checkRecord checks the record read from path: the line that says it
// matches, or an exitError (exitMoved) that says what moved.
func (a *app) checkRecord(cmd *cobra.Command, path string, rec *calibrate.Record) (string, error) {
	ref := run.RecordedRubric(rec, filepath.Dir(path))
	if cmd.Flags().Changed("rubric") {
		ref = a.v.GetString("rubric")
	}
	r, err := rubrics.FindContext(cmd.Context(), ref)
	if err != nil {
		return "", err
	}
	cur, err := run.CheckCalibration(cmd.Context(), rec, path, r, a.host().PinnedSession)
	if err != nil {
		return "", err
	}
	if msg := rec.Check(path, cur); msg != "" {
		return "", &exitError{code: exitMoved, msg: msg}
	}
	return cur.Matches(path), nil
}

// checkTwo checks the calibration of two judges whose agreement the
// judges.json at path holds: each judge's record (judge-1/, judge-2/
// beside it) as checkRecord does, and the agreement recomputed from them.
func (a *app) checkTwo(cmd *cobra.Command, path string) error {
	raw, err := boundedread.ReadFile(cmd.Context(), path, boundedread.Limit())
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	var recs [2]*calibrate.Record
	var lines, moved []string
	for i := range recs {
		p := filepath.Join(dir, fmt.Sprintf("judge-%d", i+1), run.RecordFile)
		rec, err := calibrate.Read(p)
		if err != nil {
			return fmt.Errorf("%s holds two judges' agreement, but judge %d's record beside it cannot be read: %w", path, i+1, err)
		}
		recs[i] = rec
		line, err := a.checkRecord(cmd, p, rec)
		var ee *exitError
		switch {
		case errors.As(err, &ee):
			moved = append(moved, ee.msg)
		case err != nil:
			return err
		default:
			lines = append(lines, line)
		}
	}
	own, err := calibrate.CheckBetween(raw, recs[0], recs[1])
	if err != nil {
		moved = append(moved, fmt.Sprintf("%s does not belong with the records beside it: %v", path, err))
	} else if len(own) > 0 {
		msg := []string{fmt.Sprintf("%s does not agree with the records beside it (one judge calibrated again without the other, or edited by hand):", path)}
		for _, d := range own {
			msg = append(msg, "  "+d.String())
		}
		moved = append(moved, strings.Join(append(msg, "calibrate both judges again to make a new pair"), "\n"))
	}
	if len(moved) > 0 {
		return &exitError{code: exitMoved, msg: strings.Join(moved, "\n")}
	}
	for _, l := range lines {
		fmt.Fprintln(a.stdout, l)
	}
	fmt.Fprintf(a.stdout, "%s matches the two records beside it\n", path)
	return nil
}

// isFile says whether path is a file that exists.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

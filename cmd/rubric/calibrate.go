package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/calibrate/plot"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/rubrics"
)

// exitMoved is calibrate --check's status when the record no longer
// matches the rubric, the judge or the capture.
const exitMoved = 1

// calibrationRubric is the rubric calibrate scores with unless told:
// registries publish TDQS.
const calibrationRubric = "tdqs"

// The files calibrate writes into --out.
const (
	recordFile   = "calibration.json"
	markdownFile = "calibration.md"
	plotPNG      = "calibration.png"
	plotSVG      = "calibration.svg"
)

func (a *app) calibrateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "calibrate CAPTURE --out DIR [--server TARGET | -- COMMAND] | calibrate --check RECORD",
		Short: "Score a registry capture several times and set the medians against the published scores",
		Long: `Calibrate reads a registry capture ({"release", "server", "tools": [{"name",
"definition", "qualityScore"}]}), scores the captured definitions --runs
times with answers given afresh (the cache is not read; every run's answers
are written to DIR/answers-run-K.jsonl, which the replay judge reads), and
sets the median of the runs against the published scores, per tool and per
measure. Nothing is adjusted.

Published values are matched to the rubric's by name: qualityScore's members
(tdqs, tier, scores.DIMENSION) with the tool report fields of the same name,
and the capture's server members with the members of the rubric's surface
report sections.

DIR receives calibration.json (the record), calibration.md, a scatter plot
(calibration.png, calibration.svg) and each run's answers and report.
--server TARGET or -- COMMAND also reads the server's own tools/list and
records where the capture's definitions differ from it.

--check RECORD exits 1 and says what moved when the rubric's digest, the
judge's identity or the scored set no longer match the record, 0 when all
match, and 2 when something cannot be read.`,
		Example: `  rubric calibrate capture.json --rubric tdqs --judge openai --model gpt-4.1 --runs 3 --out calib/
  rubric calibrate examples/captures/tidy.registry.json --judge heuristic --out /tmp/calib -- go run ./examples/servers/tidy
  rubric calibrate --check calib/calibration.json`,
		RunE: a.runCalibrate,
	}
	f := cmd.Flags()
	f.String("rubric", calibrationRubric, "built-in rubric name or path of a .hcl file")
	f.Int("runs", 3, "how many times the capture is scored; per tool and measure, the median is compared")
	f.StringP("out", "o", "", "the directory the record, the summary, the plot and each run's files go to")
	f.String("check", "", "check a calibration record against the rubric, judge and capture as they are now")
	f.String("server", "", "the server's own target (a file or URL), to compare its definitions with the capture's")
	targetFlags(cmd)
	judgeFlags(cmd)
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
	var serverCmd []string
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		args, serverCmd = args[:dash], args[dash:]
		if len(serverCmd) == 0 {
			return fmt.Errorf("nothing after --: give the command that starts the server whose definitions the capture is compared with")
		}
	}
	if len(args) != 1 {
		return fmt.Errorf("calibrate takes one registry capture, got %d (for example: rubric calibrate capture.json --out calib/)", len(args))
	}
	out := v.GetString("out")
	if out == "" {
		return fmt.Errorf("calibrate needs --out DIR: the record, the summary and each run's answers are written there")
	}
	runs := v.GetInt("runs")
	if runs < 1 {
		return fmt.Errorf("--runs %d: score the capture at least once", runs)
	}
	if v.GetString("record") != "" {
		return fmt.Errorf("calibrate records every run's answers itself, into %s", filepath.Join(out, "answers-run-K.jsonl"))
	}
	server := v.GetString("server")
	if server != "" && serverCmd != nil {
		return fmt.Errorf("give either --server TARGET or -- COMMAND, not both")
	}
	r, err := rubrics.Find(v.GetString("rubric"))
	if err != nil {
		return err
	}
	capturePath := args[0]
	c, err := calibrate.ReadCapture(capturePath)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	h, catalog, err := a.newHost()
	if err != nil {
		return err
	}
	defer h.Close()
	// A rubric that asks nothing has no judge, even with --judge: none
	// would answer, and the record names none.
	var j *runJudge
	var jb *report.Judge // the same in every run: an external plugin is hashed once
	if len(r.Questions) > 0 {
		if j, err = a.startJudge(ctx, h, catalog, r); err != nil {
			return err
		}
		if j != nil {
			jb = judgeBlock(j, r)
		}
	}
	var diffs *calibrate.Differences
	if server != "" || serverCmd != nil {
		name, target, err := a.buildTarget(cmd, server, serverCmd)
		if err != nil {
			return err
		}
		s, err := export(ctx, h, catalog, name, target)
		if err != nil {
			return err
		}
		diffs = calibrate.Diff(c.Surface, s, redacted(target))
	}

	// The runs score the definitions alone: the published values stay
	// out of the run reports.
	scored := &surface.Surface{Source: c.Surface.Source, Format: surface.FormatCapture, Server: c.Surface.Server, Tools: make([]surface.Tool, len(c.Surface.Tools))}
	for i, t := range c.Surface.Tools {
		t.Published = nil
		scored.Tools[i] = t
	}
	// Everything is written into a directory beside --out and moved in
	// at the end, so that a failed or interrupted run leaves --out as it
	// was, and a shorter run leaves no run files of an earlier one.
	stage, err := newStage(out)
	if err != nil {
		return err
	}
	defer stage.discard()
	reports := make([]*report.Report, runs)
	for k := range runs {
		rep, err := a.calibrationRun(cmd, r, j, jb, scored, capturePath)
		if err != nil {
			return fmt.Errorf("run %d of %d: %w", k+1, runs, err)
		}
		reports[k] = rep
		if rep.Judge != nil {
			if err := writeRecord(filepath.Join(stage.dir, answersFile(k+1)), rep); err != nil {
				return fmt.Errorf("write %s: %w", answersFile(k+1), err)
			}
		}
		if err := writers.JSON().WriteFile(filepath.Join(stage.dir, reportFile(k+1)), rep, text.Options{}); err != nil {
			return err
		}
	}
	rec, err := calibrate.New(c, reports, calibrate.Options{})
	if err != nil {
		return err
	}
	rec.Generator = report.Generator{Name: "rubric", Version: version()}
	rec.Capture.Path = relativeTo(out, capturePath)
	rec.Rubric.Ref = rubricRef(r, out)
	if j != nil && rec.Judge != nil {
		cfg, err := a.judgeConfig()
		if err != nil {
			return err
		}
		if p, ok := cfg.Options["answers"]; ok {
			cfg.Options["answers"] = relativeTo(out, p)
		}
		rec.JudgeConfig = calibrate.JudgeConfig{Ref: judgeRefFor(a.judgeRef(r), out), Config: cfg}
	}
	for i := range rec.Results {
		if reports[i].Judge != nil {
			rec.Results[i].Answers = answersFile(i + 1)
		}
		rec.Results[i].Report = reportFile(i + 1)
	}
	rec.Differences = diffs
	if err := writeCalibration(stage.dir, rec); err != nil {
		return err
	}
	if err := stage.commit(); err != nil {
		return err
	}
	if err := calibrate.WriteText(a.stdout, rec); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "\nwritten to %s: %s, %s, %s, %s, and each run's answers and report\n", out, recordFile, markdownFile, plotPNG, plotSVG)
	return nil
}

// calibrationRun scores the capture once, with answers given afresh by j
// (nil for a rubric that asks nothing), which jb records.
func (a *app) calibrationRun(cmd *cobra.Command, r *rubric.Rubric, j *runJudge, jb *report.Judge, s *surface.Surface, target string) (*report.Report, error) {
	opts := score.Options{Target: target, Version: version()}
	if j == nil {
		return score.Run(cmd.Context(), r, s, opts)
	}
	asker, finish, err := a.newAsker(cmd.Context(), r, j)
	if err != nil {
		return nil, err
	}
	defer finish()
	asker.Fresh = true
	a.asker = asker
	opts.Asker = asker
	rep, err := score.Run(cmd.Context(), r, s, opts)
	if err != nil {
		return nil, err
	}
	rep.Judge = jb
	rep.Calls = asker.Stats().Report(ask.Stats{})
	return rep, nil
}

func answersFile(run int) string { return fmt.Sprintf("answers-run-%d.jsonl", run) }
func reportFile(run int) string  { return fmt.Sprintf("report-run-%d.json", run) }

// writeCalibration writes the record, the plot and the Markdown summary.
func writeCalibration(dir string, rec *calibrate.Record) error {
	if err := calibrate.WriteFile(filepath.Join(dir, recordFile), rec); err != nil {
		return fmt.Errorf("write %s: %w", recordFile, err)
	}
	chart := plot.Of(rec)
	plotted := ""
	if len(chart.Points) > 0 {
		for _, f := range []struct{ name, format string }{{plotPNG, "png"}, {plotSVG, "svg"}} {
			b, err := plot.Render(chart, f.format)
			if err != nil {
				return fmt.Errorf("plot: %w", err)
			}
			if err := atomicfile.WriteFile(filepath.Join(dir, f.name), b); err != nil {
				return fmt.Errorf("write %s: %w", f.name, err)
			}
		}
		plotted = plotPNG
	}
	return atomicfile.Write(filepath.Join(dir, markdownFile), func(w io.Writer) error {
		return calibrate.WriteMarkdown(w, rec, plotted)
	})
}

// checkCalibration compares a record with the rubric, judge and capture
// as they are now. Nothing is scored and the judge is asked nothing.
func (a *app) checkCalibration(cmd *cobra.Command, path string) error {
	rec, err := calibrate.Read(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	c, err := calibrate.ReadCapture(fromRecord(dir, rec.Capture.Path))
	if err != nil {
		return err
	}
	ref := rec.Rubric.Ref
	if cmd.Flags().Changed("rubric") {
		ref = a.v.GetString("rubric")
	} else if !strings.HasPrefix(ref, "builtin:") {
		ref = fromRecord(dir, ref)
	}
	r, err := rubrics.Find(ref)
	if err != nil {
		return err
	}
	cur := calibrate.Current{
		RubricName: r.Name, RubricVersion: r.Version, RubricDigest: r.Digest,
		SurfaceHash: c.Surface.Hash(), ToolCount: len(c.Surface.Tools),
	}
	if rec.JudgeConfig.Ref != "" {
		h, catalog, err := a.newHost()
		if err != nil {
			return err
		}
		defer h.Close()
		p, err := catalog.Find(protocol.KindJudge, judgeRefFrom(rec.JudgeConfig.Ref, dir))
		if err != nil {
			return err
		}
		cfg := judge.Config{Model: rec.JudgeConfig.Model, Options: map[string]string{}}
		for k, val := range rec.JudgeConfig.Options {
			cfg.Options[k] = val
		}
		if ans, ok := cfg.Options["answers"]; ok {
			cfg.Options["answers"] = fromRecord(dir, ans)
		}
		j, err := h.Judge(cmd.Context(), p, cfg)
		if err != nil {
			return fmt.Errorf("start the recorded judge %q: %w", rec.JudgeConfig.Ref, err)
		}
		cur.Judge = judgeBlock(&runJudge{Judge: j, plugin: p}, r)
		j.Close()
	}
	if moved := rec.Compare(cur); len(moved) > 0 {
		lines := []string{fmt.Sprintf("%s no longer matches what it was made with:", path)}
		for _, m := range moved {
			lines = append(lines, "  "+m.String())
		}
		lines = append(lines, "calibrate again to make a new record")
		return &exitError{code: exitMoved, msg: strings.Join(lines, "\n")}
	}
	judgeName := "none"
	if cur.Judge != nil {
		judgeName = cur.Judge.Plugin + " " + cur.Judge.Version + " (" + cur.Judge.Model + ")"
	}
	fmt.Fprintf(a.stdout, "%s matches: rubric %s %s %s, judge %s, scored set %s (%d tools)\n",
		path, r.Name, r.Version, report.ShortHash(r.Digest), judgeName, report.ShortHash(cur.SurfaceHash), cur.ToolCount)
	return nil
}

// isPath says whether a judge ref names a binary by its path rather
// than a plugin by its name, as the plugin catalog tells them apart.
func isPath(ref string) bool {
	return strings.ContainsRune(ref, '/') || strings.ContainsRune(ref, filepath.Separator)
}

// judgeRefFor is the judge's ref as the record keeps it: a name as it is,
// a path relative to the record's directory (with a "./" so that it still
// reads as a path).
func judgeRefFor(ref, dir string) string {
	if !isPath(ref) {
		return ref
	}
	rel := relativeTo(dir, ref)
	if !strings.Contains(rel, "/") {
		rel = "./" + rel
	}
	return rel
}

// judgeRefFrom resolves a recorded judge ref: a path from the record's
// directory, a name as it is.
func judgeRefFrom(ref, dir string) string {
	if !isPath(ref) {
		return ref
	}
	return fromRecord(dir, ref)
}

// rubricRef is what finds the rubric again from the record: a built-in's
// "builtin:FILE", or its path relative to the record's directory.
func rubricRef(r *rubric.Rubric, dir string) string {
	if strings.HasPrefix(r.File, "builtin:") {
		return r.File
	}
	return relativeTo(dir, r.File)
}

// relativeTo writes path relative to dir, with forward slashes, so that a
// record can be moved with its directory and checked from anywhere.
func relativeTo(dir, path string) string {
	absDir, err1 := filepath.Abs(dir)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil {
		return filepath.ToSlash(absPath)
	}
	return filepath.ToSlash(rel)
}

// fromRecord resolves a path the record wrote relative to its directory.
func fromRecord(dir, path string) string {
	p := filepath.FromSlash(path)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// stage is a directory beside --out that a calibration is written into
// before it replaces the calibration files in --out.
type stage struct {
	dir, out string
	done     bool
}

func newStage(out string) (*stage, error) {
	out = filepath.Clean(out)
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".calibrating-")
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	return &stage{dir: dir, out: out}, nil
}

// staleFiles are the patterns of what calibrate writes into --out: an
// earlier calibration's files, removed before the new ones move in.
var staleFiles = []string{markdownFile, plotPNG, plotSVG, "answers-run-*.jsonl", "report-run-*.json"}

// commit moves the calibration into --out: first the old record goes (so
// that, should this stop half way, no record is left to be checked beside
// files of another run), then the old run files, then the new files, the
// record last.
func (s *stage) commit() error {
	if err := os.MkdirAll(s.out, 0o755); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.out, recordFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("replace %s: %w", filepath.Join(s.out, recordFile), err)
	}
	for _, pattern := range staleFiles {
		old, _ := filepath.Glob(filepath.Join(s.out, pattern))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("remove the earlier calibration's %s: %w", f, err)
			}
		}
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == recordFile {
			continue
		}
		if err := os.Rename(filepath.Join(s.dir, e.Name()), filepath.Join(s.out, e.Name())); err != nil {
			return err
		}
	}
	if err := os.Rename(filepath.Join(s.dir, recordFile), filepath.Join(s.out, recordFile)); err != nil {
		return err
	}
	s.done = true
	return os.Remove(s.dir)
}

// discard removes the stage unless it was committed.
func (s *stage) discard() {
	if !s.done {
		os.RemoveAll(s.dir)
	}
}

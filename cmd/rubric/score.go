package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/rubrics"
)

const defaultRubric = "schema-quality"

func (a *app) scoreCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "score [flags] TARGET | -- COMMAND [ARGS...]",
		Short: "Score a server's tools and print grades and a fix list",
		Long: `Score reads a surface (the tools a server shows) and grades it with a rubric.

The target is read by a transport plugin:
  -- COMMAND ARGS...   spawns an MCP server over stdio (the stdio transport)
  http(s)://...        a streamable HTTP endpoint (--transport sse for legacy SSE)
  FILE or -            a JSON file (or standard input) holding a tools/list
                       result, a bare array of tools, a capture
                       {"server":{...},"tools":[...]} or a registry capture
  SCHEME://...         an installed transport plugin named SCHEME
--transport NAME chooses one by name.

The summary goes to standard output in --format (text, json, markdown or
sarif), or into --out. --json, --markdown and --sarif write more files at
once. Files are written atomically.`,
		Example: `  rubric score examples/captures/filesystem.tools.json
  rubric score -- npx -y @modelcontextprotocol/server-everything
  rubric score --header "Authorization=Bearer $TOKEN" https://example.com/mcp
  rubric score --format json --out report.json tools.json
  rubric score --rubric my-rubric.hcl --fail-under B tools.json`,
		RunE: a.runScore,
	}
	f := cmd.Flags()
	f.String("rubric", defaultRubric, "built-in rubric name or path of a .hcl file")
	f.String("format", "text", "output format: "+writers.Names())
	f.StringP("out", "o", "", "write the output to this file instead of standard output")
	for _, w := range writers.All {
		if w.Flag != "" {
			f.String(w.Flag, "", "also write "+w.What+" to this file")
		}
	}
	f.String("fail-under", "", "exit 1 when the overall score is below this grade (B) or score (75)")
	f.Int("max-issues", 20, "issues shown in the terminal fix list (0 for all)")
	f.Int("max-rows", 40, "tools shown in the terminal table, worst first (0 for all)")
	f.Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	targetFlags(cmd)
	judgeFlags(cmd)
	failedFlag(cmd)
	return cmd
}

func (a *app) runScore(cmd *cobra.Command, args []string) (err error) {
	v := a.v
	format, err := writers.Find(v.GetString("format"))
	if err != nil {
		return err
	}
	r, err := rubrics.Find(v.GetString("rubric"))
	if err != nil {
		return err
	}
	threshold, err := parseFailUnder(v.GetString("fail-under"), r)
	if err != nil {
		return err
	}
	name, target, err := a.resolveTarget(cmd, args)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	sc := &scan{r: r, target: redacted(target), stage: stageJudge}
	defer func() { a.finish(sc, err, ctx.Err() != nil) }()
	readStart := time.Now()
	h, catalog, err := a.newHost()
	if err != nil {
		return err
	}
	defer h.Close()
	// The judge starts first: a wrong pin or model fails before the
	// server is read.
	j, err := a.startJudge(ctx, h, catalog, r)
	if err != nil {
		return err
	}
	sc.judge = j
	var asker *ask.Asker
	finishProgress := func() {}
	if j != nil && len(r.Questions) == 0 {
		id := j.Identity()
		a.logger().Info("judge ready; this rubric asks it nothing", "judge", id.Plugin, "version", id.Version, "model", id.Model, "rubric", r.Name)
	} else if j != nil {
		if asker, finishProgress, err = a.newAsker(ctx, r, j); err != nil {
			return err
		}
		defer finishProgress()
		a.asker = asker
		sc.asker = asker
	}
	sc.stage = stageExport
	s, err := export(ctx, h, catalog, name, target)
	if err != nil {
		return err
	}
	readMS := float64(time.Since(readStart).Microseconds()) / 1000
	n := len(s.Tools)
	sc.tools, sc.stage = &n, stageScore
	opts := score.Options{Target: redacted(target), Version: version(), Workers: v.GetInt("workers")}
	if asker != nil {
		opts.Asker = asker
	}
	rep, err := score.Run(ctx, r, s, opts)
	finishProgress() // clear the bar before anything is printed
	if err != nil {
		return err
	}
	rep.Timings.ReadMS = readMS
	if asker != nil {
		rep.Judge = judgeBlock(j, r)
		rep.Calls = asker.Stats().Report(ask.Stats{})
		if path := v.GetString("record"); path != "" {
			if err := writeRecord(path, rep); err != nil {
				return fmt.Errorf("write %s: %w", path, err)
			}
		}
	}
	sc.stage = stageWrite
	if err := a.writeOutputs(rep, format); err != nil {
		return err
	}
	sc.stage = stageDone
	return failUnder(rep, threshold)
}

// textOptions are the terminal summary's caps.
func (a *app) textOptions() text.Options {
	return text.Options{MaxIssues: a.v.GetInt("max-issues"), MaxTools: a.v.GetInt("max-rows")}
}

// writeOutputs writes the main output to --out or standard output (in
// colour on a terminal), then the extra files; every file is written
// atomically.
func (a *app) writeOutputs(rep *report.Report, format writers.Writer) error {
	opt := a.textOptions()
	if out := a.v.GetString("out"); out != "" {
		if err := format.WriteFile(out, rep, opt); err != nil {
			return err
		}
	} else {
		if f, ok := a.stdout.(*os.File); ok && format.Name == "text" {
			opt.Color, opt.Width = text.ColorEnabled(f), text.TerminalWidth(f)
		}
		if err := format.Write(a.stdout, rep, opt); err != nil {
			return err
		}
	}
	for _, w := range writers.All {
		if path := a.v.GetString(w.Flag); w.Flag != "" && path != "" {
			if err := w.WriteFile(path, rep, opt); err != nil {
				return err
			}
		}
	}
	return nil
}

// threshold is a --fail-under bound: a minimum exact score.
type threshold struct {
	min   num.Num
	label string
	set   bool
}

// parseFailUnder reads a grade letter of the rubric or a number.
func parseFailUnder(s string, r *rubric.Rubric) (threshold, error) {
	if s == "" {
		return threshold{}, nil
	}
	for _, g := range r.Grades {
		if strings.EqualFold(g.Letter, s) {
			return threshold{min: g.Min, label: "grade " + g.Letter, set: true}, nil
		}
	}
	n, err := num.Parse(s)
	if err != nil {
		letters := make([]string, len(r.Grades))
		for i, g := range r.Grades {
			letters[i] = g.Letter
		}
		return threshold{}, fmt.Errorf("--fail-under %q is neither a grade of %s (%s) nor a number", s, r.Name, strings.Join(letters, ", "))
	}
	return threshold{min: n, label: n.String(), set: true}, nil
}

func failUnder(rep *report.Report, t threshold) error {
	if !t.set {
		return nil
	}
	if rep.Exact == nil {
		return &exitError{code: exitBelow, msg: fmt.Sprintf("no overall score (%s), so it cannot reach %s", rep.NoScore, t.label)}
	}
	got := num.MustParse(*rep.Exact)
	if got.Cmp(t.min) < 0 {
		return &exitError{code: exitBelow, msg: fmt.Sprintf("overall score %s is below %s (%s)", *rep.Score, t.label, t.min)}
	}
	return nil
}

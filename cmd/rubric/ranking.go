package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/rank"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/rubrics"
)

// rescoreRanking rescores every report with r from its recorded
// observations (no judge is asked) and prints the two rankings compared;
// it exits 2, naming them, when a report could not be rescored.
func (a *app) rescoreRanking(ctx context.Context, r *rubric.Rubric, paths []string, names map[string]string, format string) error {
	rk := rank.Rescore(ctx, r, paths, names, run.New(a.host().Options()).Rescore(r), checkRecorded)
	write := rk.WriteText
	if format == "json" {
		write = rk.WriteJSON
	}
	if err := write(a.stdout); err != nil {
		return err
	}
	if failed := rk.Failed(); len(failed) > 0 {
		return &exitError{code: exitInvalid, msg: fmt.Sprintf("%d of %s could not be rescored: %s", len(failed), report.Plural(len(rk.Servers), "report"), strings.Join(failed, ", "))}
	}
	return nil
}

// checkRecorded refuses a report whose recorded scores its own
// observations, scored again with the rubric it was scored with, do not
// give (explain.Check, as rubric explain does): rescore shows them as
// the old scores.
func checkRecorded(ctx context.Context, old *report.Report) error {
	_, err := recordedRubric(ctx, old)
	return err
}

// recordedRubric is checkRecorded that returns the rubric the report was
// scored with.
func recordedRubric(ctx context.Context, old *report.Report) (*rubric.Rubric, error) {
	r, err := rubrics.Recorded(old)
	if err != nil {
		return nil, fmt.Errorf("cannot check the scores it records: %w", err)
	}
	return r, explain.Check(ctx, r, old)
}

package main

import (
	"context"

	"github.com/rubricmcp/rubric/engine/rank"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/surface"
)

// rescoreRanking rescores every report with r from its recorded
// observations (no judge is asked) and prints the two rankings compared.
func (a *app) rescoreRanking(ctx context.Context, r *rubric.Rubric, paths []string, format string) error {
	sess := run.New(a.host().Options())
	rk := rank.Rescore(ctx, r, paths, func(ctx context.Context, surf *surface.Surface, target string, old *report.Report) (*report.Report, error) {
		return sess.Scan(ctx, run.Source{Surface: surf, Name: target}, r, run.ScanOptions{Answers: old})
	})
	if format == "json" {
		return rk.WriteJSON(a.stdout)
	}
	return rk.WriteText(a.stdout)
}

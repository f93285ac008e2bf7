package main

import (
	"context"

	"github.com/rubricmcp/rubric/engine/rank"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
)

// rescoreRanking rescores every report with r from its recorded
// observations (no judge is asked) and prints the two rankings compared.
func (a *app) rescoreRanking(ctx context.Context, r *rubric.Rubric, paths []string, format string) error {
	rk := rank.Rescore(ctx, r, paths, run.New(a.host().Options()).Rescore(r))
	if format == "json" {
		return rk.WriteJSON(a.stdout)
	}
	return rk.WriteText(a.stdout)
}

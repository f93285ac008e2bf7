package main

import (
	"context"
	"strings"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// explainer gives rep the arithmetic of each tool's score, as rubric
// explain --tool prints it, for the HTML page, which knows no rubric. It
// embeds the scored surface once, as a report read from a file does.
func explainer(ctx context.Context, r *rubric.Rubric, rep *report.Report) func(tool string) (string, error) {
	read := *rep
	return func(tool string) (string, error) {
		if len(read.Embedded) == 0 {
			s, err := rep.ScoredSurface()
			if err != nil {
				return "", err
			}
			read.Embedded = s.Marshal()
		}
		var b strings.Builder
		err := explain.Write(ctx, &b, r, &read, explain.Request{Tool: tool})
		return b.String(), err
	}
}

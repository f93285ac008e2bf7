package explain

import (
	"context"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// ToolExplainer gives rep the arithmetic of each tool's score, as rubric
// explain --tool prints it, for the HTML page, which knows no rubric. It
// embeds the scored surface once, as a report read from a file does.
func ToolExplainer(ctx context.Context, r *rubric.Rubric, rep *report.Report) func(tool string) (string, error) {
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
		err := Write(ctx, &b, r, &read, Request{Tool: tool})
		return b.String(), err
	}
}

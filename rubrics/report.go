package rubrics

import (
	"fmt"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// OfReport loads the rubric a report was scored with: ref when given,
// else the file (a path, or builtin:FILE) or the name the report
// records. One whose digest differs from the report's is refused: its
// formulas would not explain the report's numbers.
func OfReport(rep *report.Report, ref string) (*rubric.Rubric, error) {
	if ref == "" {
		ref = rep.Rubric.File
	}
	if ref == "" {
		ref = rep.Rubric.Name
	}
	r, err := Find(ref)
	if err != nil {
		return nil, fmt.Errorf("cannot load the rubric the report was scored with: %w (pass it with --rubric)", err)
	}
	if r.Digest != rep.Rubric.Digest {
		return nil, fmt.Errorf("the report was scored with %s digest %s, but %s has digest %s: pass the rubric it was scored with (--rubric), or rescore the report first", rep.Rubric.Name, rep.Rubric.Digest, ref, r.Digest)
	}
	return r, nil
}

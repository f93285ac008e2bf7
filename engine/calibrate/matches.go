package calibrate

import (
	"fmt"

	"github.com/rubricmcp/rubric/engine/report"
)

// Matches is the line that says the record at path matches c (rubric
// calibrate --check): the rubric, the judge ("none" when the rubric asks
// nothing) and the scored set, with short digests.
func (c Current) Matches(path string) string {
	judge := "none"
	if c.Judge != nil {
		judge = c.Judge.Plugin + " " + c.Judge.Version
		switch noun, names := c.Judge.Answered(); noun {
		case "model":
			judge += " (" + names + ")"
		case "models":
			judge += " (models " + names + ")"
		}
	}
	return fmt.Sprintf("%s matches: rubric %s %s %s, judge %s, scored set %s (%d tools)",
		path, c.RubricName, c.RubricVersion, report.ShortHash(c.RubricDigest), judge, report.ShortHash(c.SurfaceHash), c.ToolCount)
}

package calibrate

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
)

func TestMatches(t *testing.T) {
	cur := Current{RubricName: "tdqs", RubricVersion: "1.3.0", RubricDigest: "sha256:0123456789abcdef0123",
		SurfaceHash: "sha256:fedcba9876543210fedc", ToolCount: 4}
	withJudge := cur
	withJudge.Judge = &report.Judge{Identity: judge.Identity{Plugin: "heuristic", Version: "1.0.0", Model: "rules"}}
	mixed := cur
	mixed.Judge = &report.Judge{Identity: judge.Identity{Plugin: "replay", Version: "1.0.0", Params: map[string]any{judge.ParamModels: "a (2 answers), b (1 answer)"}}}
	unnamed := cur
	unnamed.Judge = &report.Judge{Identity: judge.Identity{Plugin: "replay", Version: "1.0.0"}}
	for _, tc := range []struct {
		name string
		cur  Current
		want string
	}{
		{name: "no judge", cur: cur, want: "c.json matches: rubric tdqs 1.3.0 sha256:0123456789ab, judge none, scored set sha256:fedcba987654 (4 tools)"},
		{name: "a judge", cur: withJudge, want: "c.json matches: rubric tdqs 1.3.0 sha256:0123456789ab, judge heuristic 1.0.0 (rules), scored set sha256:fedcba987654 (4 tools)"},
		{name: "a judge of several models", cur: mixed, want: "c.json matches: rubric tdqs 1.3.0 sha256:0123456789ab, judge replay 1.0.0 (models a (2 answers), b (1 answer)), scored set sha256:fedcba987654 (4 tools)"},
		{name: "a judge naming no model", cur: unnamed, want: "c.json matches: rubric tdqs 1.3.0 sha256:0123456789ab, judge replay 1.0.0, scored set sha256:fedcba987654 (4 tools)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.cur.Matches("c.json"); got != tc.want {
				t.Errorf("Matches = %q\nwant      %q", got, tc.want)
			}
		})
	}
}

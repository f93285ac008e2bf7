package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

// FuzzRead: a damaged report (a report explain and rescore are given)
// never makes reading it panic, nor walking what it records; it is read
// or refused with an error.
func FuzzRead(f *testing.F) {
	golden, _ := filepath.Glob("../score/testdata/golden/*.report.json")
	for _, name := range golden {
		if b, err := os.ReadFile(name); err == nil && len(b) < 256<<10 {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"report_version": 1, "embedded_surface": {"tools": []}, "exact": 7, "score": "x"}`,
		`{"report_version": 1, "embedded_surface": {"tools": []}, "tools": [{"name": "a", "exact": null, "score": 1e999}]}`,
		`{"report_version": 1, "embedded_surface": [], "answers": [{"answer": {"x": [[[[[]]]]]}}], "tools": [{}]}`,
		`{"report_version": 1, "embedded_surface": 1e400}`,
		`{"report_version": 1, "embedded_surface": {}, "metrics": [{"name": "m", "value": {"exact": "1/0"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parse("fuzz.json", b)
		if err != nil {
			return
		}
		for range r.Observations() {
		}
		if len(r.Embedded) > 0 {
			surface.Parse("embedded", r.Embedded)
		}
		r.Unscored()
		r.ShownWarnings()
	})
}

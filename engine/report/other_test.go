package report

import "testing"

// TestOther: a document of rubric's names itself to a reader that wanted
// another kind; the kind wanted, or no JSON object, names nothing.
func TestOther(t *testing.T) {
	for _, tt := range []struct {
		doc, key, want string
	}{
		{`{"report_version": 3, "tools": []}`, "gate_version", "a score report (rubric score)"},
		{`{"gate_version": 1}`, "calibration_version", "a gate report (rubric gate)"},
		{`{"tools": []}`, "gate_version", "a capture of a server's tools"},
		{`{"failed_version": 1}`, "gate_version", "the record of a run that could not complete (failed.json)"},
		{`{"a": 1}`, "gate_version", "a JSON object none of rubric's commands writes"},
		{`{"gate_version": 0}`, "gate_version", ""},
		{`[1]`, "gate_version", ""},
		{`not json`, "gate_version", ""},
	} {
		if got := Other([]byte(tt.doc), tt.key); got != tt.want {
			t.Errorf("Other(%s, %s) = %q, want %q", tt.doc, tt.key, got, tt.want)
		}
	}
}

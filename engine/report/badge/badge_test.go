package badge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

// endpointFields are the fields of a shields.io endpoint response
// (shields.io/badges/endpoint-badge): schemaVersion, label and message
// are required; the rest optional.
var endpointFields = map[string]string{
	"schemaVersion": "number", "label": "string", "message": "string", "color": "string",
	"labelColor": "string", "isError": "bool", "namedLogo": "string", "logoSvg": "string",
	"logoColor": "string", "logoSize": "string", "style": "string", "cacheSeconds": "number",
}

func TestBadge(t *testing.T) {
	grade := func(g, score string) func(testing.TB) *report.Report {
		return func(t testing.TB) *report.Report {
			r := reporttest.Clean(t)
			n := json.Number(score)
			r.Grade, r.Score = &g, &n
			return r
		}
	}
	cases := []struct {
		name          string
		rep           func(testing.TB) *report.Report
		message, colr string
		isError       bool
	}{
		{"everything", func(t testing.TB) *report.Report { return reporttest.Capture(t, "everything.tools.json") }, "B 88.5", "green", false},
		{"A", grade("A", "97"), "A 97", "brightgreen", false},
		{"C", grade("C", "71.5"), "C 71.5", "yellow", false},
		{"D", grade("D", "60"), "D 60", "orange", false},
		{"F", grade("F", "12"), "F 12", "red", false},
		{"tier", grade("Gold", "4.5"), "Gold 4.5", "blue", false},
		{"no score", reporttest.Empty, "no score", "lightgrey", false},
		{"incomplete", reporttest.Incomplete, "incomplete", "red", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, c.rep(t)); err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			for k, v := range m {
				want, ok := endpointFields[k]
				got := ""
				switch v.(type) {
				case string:
					got = "string"
				case float64:
					got = "number"
				case bool:
					got = "bool"
				}
				if !ok || got != want {
					t.Errorf("field %s = %#v is not a shields endpoint field of type %s", k, v, want)
				}
			}
			if m["schemaVersion"] != float64(1) || m["label"] != "rubric schema-quality" || m["message"] != c.message || m["color"] != c.colr || (m["isError"] == true) != c.isError {
				t.Errorf("badge %v, want message %q colour %s isError %v", m, c.message, c.colr, c.isError)
			}
		})
	}
}

// TestBadgeSaysToolsUnscored: the score of a report that left a tool
// unscored is the others', and the badge says so.
func TestBadgeSaysToolsUnscored(t *testing.T) {
	r := reporttest.Partial(t)
	b := Of(r)
	want := *r.Grade + " " + r.Score.String() + " (1 unscored)"
	if b.Message != want || b.Label != "rubric tdqs" || b.IsError {
		t.Errorf("badge %+v, want message %q", b, want)
	}
}

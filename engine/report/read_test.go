package report

import (
	"context"
	"errors"
	"testing"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// A report named on the command line may be /dev/zero: reading it stops
// at the limit instead of taking every byte of memory.
func TestReadStopsAtTheLimit(t *testing.T) {
	heavytest.Later(t)
	for _, max := range []int64{1 << 16, boundedread.DefaultMax} {
		_, err := ReadContext(context.Background(), "/dev/zero", max)
		var tl *boundedread.TooLargeError
		if !errors.As(err, &tl) || tl.Max != max {
			t.Errorf("limit %d: err = %v, want a TooLargeError", max, err)
		}
	}
	if _, err := Read("/dev/zero"); !errors.As(err, new(*boundedread.TooLargeError)) {
		t.Errorf("Read: err = %v, want a TooLargeError at the default limit", err)
	}
}

// A JSON file that is no report says what it is, or that it is none,
// rather than "report version 0".
func TestParseNotAReport(t *testing.T) {
	for _, tc := range []struct{ name, json, err string }{
		{"empty", `{}`, "f.json: not a rubric report but a JSON object without report_version; rubric score --format json (or --json report.json) writes a report"},
		{"servers", `{"servers_version": 1, "servers": [], "set": null}`, "f.json: not a rubric report but a servers document (rubric score --config-file), which holds each server's report in servers[].report and the installed set's in set: take one out (jq .set f.json > report.json), or score one server with --server NAME"},
		{"gate", `{"gate_version": 1}`, "f.json: not a rubric report but a gate report (rubric gate); its base's and head's reports are the score reports beside it"},
		{"capture", `{"tools": []}`, "f.json: not a rubric report but a capture of a server's tools: score it with rubric score f.json"},
		{"another version", `{"report_version": 7, "servers_version": 1}`, "f.json: report version 7, this rubric reads version 1"},
		{"a version of 0 written", `{"report_version": 0}`, "f.json: report version 0, this rubric reads version 1"},
		{"answers, as --record writes them", "{\"kind\": \"tdqs.tool\", \"subject\": \"a\", \"answer\": {}}\n{\"kind\": \"tdqs.coherence\", \"subject\": \"surface\", \"answer\": {}}\n",
			"f.json: not a rubric report but an answers file (one judge's answer a line, as --record writes): score with its answers, asking no judge, with rubric score --judge replay --answers f.json TARGET"},
		{"answers of one line", `{"kind": "tdqs.tool", "subject": "a", "answer": {}}`,
			"f.json: not a rubric report but an answers file (one judge's answer a line, as --record writes): score with its answers, asking no judge, with rubric score --judge replay --answers f.json TARGET"},
		{"answers written by hand, with comments", "# by hand\n\n{\"kind\": \"tdqs.tool\", \"subject\": \"a\", \"answer\": {}}\n",
			"f.json: not a rubric report but an answers file (one judge's answer a line, as --record writes): score with its answers, asking no judge, with rubric score --judge replay --answers f.json TARGET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("f.json", []byte(tc.json))
			if err == nil || err.Error() != tc.err {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

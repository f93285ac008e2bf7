package report_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

// TestReadmeNamesEveryMember holds README.md's "Reports" section to the
// report's JSON Schema: every top-level member and every member of an
// issue is named there in backquotes, so that a member added to the
// schema is described where a reader of the report looks for it.
func TestReadmeNamesEveryMember(t *testing.T) {
	section := readmetest.Section(t, "## Reports")
	// A member is named as `name`, or inside a backquoted list such as
	// `issues[] {check, title, ...}` or `rubric {name, version, digest}`.
	named := map[string]bool{}
	parts := strings.Split(section, "`")
	for i := 1; i < len(parts); i += 2 {
		for _, w := range strings.FieldsFunc(parts[i], func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			named[w] = true
		}
	}
	raw, err := os.ReadFile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       struct {
			Issue struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"issue"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	if len(schema.Properties) < 10 || len(schema.Defs.Issue.Properties) < 5 {
		t.Fatalf("read %d top-level members and %d of an issue from the schema: has its layout changed?", len(schema.Properties), len(schema.Defs.Issue.Properties))
	}
	for m := range schema.Properties {
		if !named[m] {
			t.Errorf("the report's member %q is not named in README.md's Reports section", m)
		}
	}
	for m := range schema.Defs.Issue.Properties {
		if !named[m] {
			t.Errorf("an issue's member %q is not named in README.md's Reports section", m)
		}
	}
}

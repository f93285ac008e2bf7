package rubric

import (
	"errors"
	"strings"
	"testing"
)

// TestPromptFields: a prompt template that reads a member the question's
// input (a map literal) does not have is refused where the prompt is
// written, with the nearest key: it would send "<no value>" to the
// judge. Inside range and with only $ is the input; an input that is no
// literal map is not checked.
func TestPromptFields(t *testing.T) {
	src := func(input, user string) string {
		return `rubric "t" {
  version = "1"
  question "q" {
    kind          = "k"
    per           = "tool"
    input         = "` + input + `"
    system        = "You grade."
    user          = "` + user + `"
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    score = "1"
  }
  surface {
    score = "1"
  }
  grades = { A = 1, F = 0 }
}
`
	}
	for _, tc := range []struct {
		name, input, user, want string
	}{
		{"a key it has", "{'name': tool.name}", "Grade {{.name}}", ""},
		{"a misspelled key", "{'name': tool.name}", "Grade {{.nmae}}", `t.hcl:8:21: user reads .nmae, which the question's input does not have: did you mean .name? (its keys are name); the judge would read <no value> there, always`},
		{"a member of a key it has", "{'tool': tool}", "Grade {{.tool.name}}", ""},
		{"inside range, the item's", "{'names': [tool.name]}", "{{range .names}}{{.x}}{{end}}", ""},
		{"inside range, the input's", "{'names': [tool.name]}", "{{range .names}}{{$.nmes}}{{end}}", `t.hcl:8:21: user reads .nmes, which the question's input does not have: did you mean .names? (its keys are names); the judge would read <no value> there, always`},
		{"in default's argument", "{'name': tool.name}", "{{default \\\"none\\\" .title}}", `t.hcl:8:21: user reads .title, which the question's input does not have (its keys are name); the judge would read the default there, always`},
		{"piped into default", "{'name': tool.name}", "{{.title | default \\\"none\\\"}}", `t.hcl:8:21: user reads .title, which the question's input does not have (its keys are name); the judge would read the default there, always`},
		{"in default and out of it", "{'name': tool.name}", "{{default \\\"none\\\" .title}} {{.title}}", `t.hcl:8:21: user reads .title, which the question's input does not have (its keys are name); the judge would read <no value> there, always`},
		{"in another function's argument", "{'name': tool.name}", "{{printf \\\"%s\\\" .title}}", `t.hcl:8:21: user reads .title, which the question's input does not have (its keys are name); the judge would read <no value> there, always`},
		{"an input that is no literal", "true ? {'name': tool.name} : {}", "Grade {{.nmae}}", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("t.hcl", []byte(src(tc.input, tc.user)))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var le *Error
			if !errors.As(err, &le) || len(le.Diagnostics) != 1 {
				t.Fatalf("want one diagnostic, got %v", err)
			}
			if got := le.Diagnostics[0].String(); !strings.HasPrefix(got, tc.want) || got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

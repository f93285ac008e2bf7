package runflags

import "testing"

// TestRubricArg: the rubric a command line will load is told without
// parsing it: --rubric's value in either form, the last one winning,
// else RUBRIC_RUBRIC's, else the default; only for a score, and never
// from the arguments of a command given after --.
func TestRubricArg(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  string
		want string
		ok   bool
	}{
		{"the default", []string{"score", "tools.json"}, "", "schema-quality", true},
		{"the flag", []string{"score", "--rubric", "tdqs", "tools.json"}, "", "tdqs", true},
		{"the flag with =", []string{"score", "tools.json", "--rubric=gradable"}, "", "gradable", true},
		{"the last flag", []string{"score", "--rubric=tdqs", "--rubric", "gradable", "t.json"}, "", "gradable", true},
		{"the environment", []string{"score", "tools.json"}, "tool-safety", "tool-safety", true},
		{"the flag over the environment", []string{"score", "--rubric", "tdqs", "t.json"}, "tool-safety", "tdqs", true},
		{"a command's own flag", []string{"score", "--", "server", "--rubric", "tdqs"}, "", "schema-quality", true},
		{"the flag without a value", []string{"score", "--rubric"}, "", "schema-quality", true},
		{"another command", []string{"rubrics", "list"}, "", "", false},
		{"no command", nil, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("RUBRIC_RUBRIC", tt.env) // empty: as if unset
			got, ok := rubricArg(tt.args, "schema-quality")
			if got != tt.want || ok != tt.ok {
				t.Errorf("rubricArg(%q) = %q, %t; want %q, %t", tt.args, got, ok, tt.want, tt.ok)
			}
		})
	}
}

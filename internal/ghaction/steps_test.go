package ghaction

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSteps(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	push := write("push.json", `{"ref":"refs/heads/main"}`)
	fork := write("fork.json", `{"pull_request":{"number":8,"head":{"repo":{"full_name":"m/r","fork":true}},"base":{"repo":{"full_name":"o/r"}}}}`)
	report := Report{File: write("report.md", "# score\n"), Note: "first line\nsecond", Rest: "see the artifact"}
	for _, c := range []struct {
		name    string
		step    func(env Env, out *bytes.Buffer) error
		env     Env
		wantOut string
		wantErr string
		file    string // the env file the step appends to
		want    string
	}{
		{"event of a fork", func(env Env, out *bytes.Buffer) error { return WriteEvent(env, out) },
			Env{EventPath: fork, Output: filepath.Join(dir, "output")}, "pull-request=8\nfork=true\n", "", "output", "pull-request=8\nfork=true\n"},
		{"event without GITHUB_OUTPUT", func(env Env, out *bytes.Buffer) error { return WriteEvent(env, out) },
			Env{EventPath: push}, "pull-request=0\nfork=false\n", "GITHUB_OUTPUT is not set", "", ""},
		{"event with an unwritable GITHUB_OUTPUT", func(env Env, out *bytes.Buffer) error { return WriteEvent(env, out) },
			Env{EventPath: push, Output: filepath.Join(dir, "no-such-dir", "output")}, "pull-request=0\nfork=false\n",
			"write the step outputs to GITHUB_OUTPUT (" + filepath.Join(dir, "no-such-dir", "output") + "): no such file or directory; GitHub Actions sets it", "", ""},
		{"summary into an unwritable GITHUB_STEP_SUMMARY", func(env Env, out *bytes.Buffer) error { return WriteSummary(context.Background(), env, report, out) },
			Env{Summary: filepath.Join(dir, "no-such-dir", "summary")}, "", "append to the job summary GITHUB_STEP_SUMMARY (" + filepath.Join(dir, "no-such-dir", "summary") + "): no such file or directory", "", ""},
		{"summary of a report that is not there", func(env Env, out *bytes.Buffer) error {
			return WriteSummary(context.Background(), env, Report{File: filepath.Join(dir, "nosuch.md")}, out)
		}, Env{Summary: filepath.Join(dir, "summary2")}, "", "nosuch.md does not exist", "", ""},
		{"summary with a note", func(env Env, out *bytes.Buffer) error { return WriteSummary(context.Background(), env, report, out) },
			Env{Summary: filepath.Join(dir, "summary")}, "", "", "summary", "> [!NOTE]\n> first line\n> second\n\n# score\n"},
		{"comment outside a pull request", func(env Env, out *bytes.Buffer) error {
			return WriteComment(context.Background(), env, report, Comment{Key: "k"}, out)
		}, Env{EventPath: push}, "not a pull request: no comment written\n", "", "", ""},
		{"comment on a fork", func(env Env, out *bytes.Buffer) error {
			return WriteComment(context.Background(), env, report, Comment{Key: "k"}, out)
		}, Env{EventPath: fork}, "::notice::pull request #8 comes from a fork, whose token may not write: no comment written (the report is in the job summary)\n", "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := c.step(c.env, &out)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
			if out.String() != c.wantOut {
				t.Errorf("output %q, want %q", out.String(), c.wantOut)
			}
			if c.file != "" {
				b, err := os.ReadFile(filepath.Join(dir, c.file))
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != c.want {
					t.Errorf("%s holds %q, want %q", c.file, b, c.want)
				}
			}
		})
	}
}

// TestChooseRubric: the rubric input wins when set; unset, rubric.yaml's
// rubric stands (no --rubric is given, so rubric reads it itself); with
// neither, the Action's default.
func TestChooseRubric(t *testing.T) {
	for _, c := range []struct {
		input, configured, name, flag string
	}{
		{"schema-quality", "", "schema-quality", "schema-quality"},
		{"schema-quality", "gradable", "schema-quality", "schema-quality"},
		{"", "gradable", "gradable", ""},
		{"", "rubrics/mine.hcl", "rubrics/mine.hcl", ""},
		{"", "", "tdqs", "tdqs"},
	} {
		name, flag := ChooseRubric(c.input, c.configured)
		if name != c.name || flag != c.flag {
			t.Errorf("ChooseRubric(%q, %q) = %q, %q; want %q, %q", c.input, c.configured, name, flag, c.name, c.flag)
		}
	}
}

package gate_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/gate"
)

// TestRubricChange: a rubric the head changes is recorded in the report
// and said in the terminal and in gate.md; when the head's own rubric
// scored both sides (the base has none), the decision's reason says so
// too, and gate.md warns rather than notes.
func TestRubricChange(t *testing.T) {
	r := lenRubric(t)
	base, head := tools(4, nil), tools(4, better)
	for _, c := range []struct {
		used, reason, callout string
	}{
		{"base", "", "> [!NOTE]\n> The note.\n"},
		{"head", "; but with the head's own rubric, which the base does not have: review the rubric before merging", "> [!WARNING]\n> The note.\n"},
	} {
		t.Run(c.used, func(t *testing.T) {
			rep, err := gate.Run(context.Background(), gate.Options{
				Rubric:       r,
				Base:         gate.Input{Side: gate.Side{Rev: "main"}, Surface: base},
				Head:         gate.Input{Surface: head},
				RubricChange: &gate.RubricChange{Used: c.used, Note: "the note."},
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.RubricChange == nil || rep.RubricChange.Used != c.used {
				t.Fatalf("the report records %+v", rep.RubricChange)
			}
			if got := strings.HasSuffix(rep.Reason, c.reason); !got || (c.reason == "" && strings.Contains(rep.Reason, "own rubric")) {
				t.Errorf("reason %q, want it to end %q", rep.Reason, c.reason)
			}
			text, md, js := writeAll(t, rep)
			if !strings.Contains(text, "\nrubric: the note.\n"+string(rep.Decision)+": ") {
				t.Errorf("the terminal lacks the note before the decision:\n%s", text)
			}
			if !strings.Contains(md, c.callout) {
				t.Errorf("gate.md lacks %q:\n%s", c.callout, md)
			}
			if !strings.Contains(js, `"rubric_change": {`) || !strings.Contains(js, `"used": "`+c.used+`"`) {
				t.Errorf("gate.json lacks the change:\n%s", js)
			}
		})
	}
	// Without a change, nothing is said.
	rep, err := gate.Run(context.Background(), gate.Options{Rubric: r, Base: gate.Input{Surface: base}, Head: gate.Input{Surface: head}})
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := writeAll(t, rep)
	if strings.Contains(text, "rubric: ") || rep.RubricChange != nil {
		t.Errorf("a gate without a change says one:\n%s", text)
	}
}

// TestJudgeChange: judge settings the head changes are recorded in the
// report as judge_change and said in the terminal and in gate.md, apart
// from a rubric change; when the head's answered both sides (the base's
// could not be read), the decision's reason says so and gate.md warns.
func TestJudgeChange(t *testing.T) {
	r := lenRubric(t)
	base, head := tools(4, nil), tools(4, better)
	for _, c := range []struct {
		used, reason, callout string
	}{
		{"base", "", "> [!NOTE]\n> The judge note.\n"},
		{"head", "; but with the head's own judge settings, as the base's could not be read: review them before merging", "> [!WARNING]\n> The judge note.\n"},
	} {
		t.Run(c.used, func(t *testing.T) {
			change := &gate.JudgeChange{Used: c.used, BaseFile: "main:rubric.yaml", HeadFile: "rubric.yaml",
				Settings: []gate.SettingChange{{Key: "judge", Base: "openai", Head: "heuristic"}}, Note: "the judge note."}
			rep, err := gate.Run(context.Background(), gate.Options{
				Rubric: r, Base: gate.Input{Side: gate.Side{Rev: "main"}, Surface: base}, Head: gate.Input{Surface: head}, JudgeChange: change,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.JudgeChange != change || rep.RubricChange != nil {
				t.Fatalf("the report records judge %+v, rubric %+v", rep.JudgeChange, rep.RubricChange)
			}
			if got := strings.HasSuffix(rep.Reason, c.reason); !got || (c.reason == "" && strings.Contains(rep.Reason, "own judge")) {
				t.Errorf("reason %q, want it to end %q", rep.Reason, c.reason)
			}
			text, md, js := writeAll(t, rep)
			if !strings.Contains(text, "\njudge: the judge note.\n"+string(rep.Decision)+": ") || strings.Contains(text, "\nrubric: ") {
				t.Errorf("the terminal lacks the note before the decision:\n%s", text)
			}
			if !strings.Contains(md, c.callout) {
				t.Errorf("gate.md lacks %q:\n%s", c.callout, md)
			}
			for _, want := range []string{`"judge_change": {`, `"used": "` + c.used + `"`, `"base_file": "main:rubric.yaml"`, `"key": "judge"`, `"base": "openai"`, `"head": "heuristic"`} {
				if !strings.Contains(js, want) {
					t.Errorf("gate.json lacks %s:\n%s", want, js)
				}
			}
		})
	}
	rep, err := gate.Run(context.Background(), gate.Options{Rubric: r, Base: gate.Input{Surface: base}, Head: gate.Input{Surface: head}})
	if err != nil {
		t.Fatal(err)
	}
	text, _, js := writeAll(t, rep)
	if strings.Contains(text, "judge: ") || strings.Contains(js, "judge_change") {
		t.Errorf("a gate without a change says one:\n%s", text)
	}
}

// TestPolicyChange: fail-on-breaking or lock settings the head changes
// are recorded in the report as policy_change and said in the terminal
// and in gate.md, apart from the rubric's and the judge's; when the
// head's decided (the base's could not be read), the decision's reason
// says so and gate.md warns.
func TestPolicyChange(t *testing.T) {
	r := lenRubric(t)
	base, head := tools(4, nil), tools(4, better)
	for _, c := range []struct {
		used, reason, callout string
	}{
		{"base", "", "> [!NOTE]\n> The policy note.\n"},
		{"head", "; but with the head's own fail-on-breaking and lock settings, as the base's could not be read: review them before merging", "> [!WARNING]\n> The policy note.\n"},
	} {
		t.Run(c.used, func(t *testing.T) {
			change := &gate.PolicyChange{Used: c.used, BaseFile: "main:rubric.yaml", HeadFile: "rubric.yaml",
				Settings: []gate.SettingChange{{Key: "fail-on-breaking", Base: "true", Head: "false"}}, Note: "the policy note."}
			rep, err := gate.Run(context.Background(), gate.Options{
				Rubric: r, Base: gate.Input{Side: gate.Side{Rev: "main"}, Surface: base}, Head: gate.Input{Surface: head}, PolicyChange: change,
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.PolicyChange != change || rep.RubricChange != nil || rep.JudgeChange != nil {
				t.Fatalf("the report records policy %+v, rubric %+v, judge %+v", rep.PolicyChange, rep.RubricChange, rep.JudgeChange)
			}
			if got := strings.HasSuffix(rep.Reason, c.reason); !got || (c.reason == "" && strings.Contains(rep.Reason, "head's own")) {
				t.Errorf("reason %q, want it to end %q", rep.Reason, c.reason)
			}
			text, md, js := writeAll(t, rep)
			if !strings.Contains(text, "\npolicy: the policy note.\n"+string(rep.Decision)+": ") || strings.Contains(text, "\njudge: ") {
				t.Errorf("the terminal lacks the note before the decision:\n%s", text)
			}
			if !strings.Contains(md, c.callout) {
				t.Errorf("gate.md lacks %q:\n%s", c.callout, md)
			}
			for _, want := range []string{`"policy_change": {`, `"used": "` + c.used + `"`, `"base_file": "main:rubric.yaml"`, `"key": "fail-on-breaking"`, `"base": "true"`, `"head": "false"`} {
				if !strings.Contains(js, want) {
					t.Errorf("gate.json lacks %s:\n%s", want, js)
				}
			}
		})
	}
	rep, err := gate.Run(context.Background(), gate.Options{Rubric: r, Base: gate.Input{Surface: base}, Head: gate.Input{Surface: head}})
	if err != nil {
		t.Fatal(err)
	}
	text, _, js := writeAll(t, rep)
	if strings.Contains(text, "policy: ") || strings.Contains(js, "policy_change") {
		t.Errorf("a gate without a change says one:\n%s", text)
	}
}

// writeAll writes rep as the terminal, gate.md and gate.json have it.
func writeAll(t *testing.T, rep *gate.Report) (text, md, js string) {
	t.Helper()
	var tb, mb, jb bytes.Buffer
	if err := gate.WriteText(&tb, rep); err != nil {
		t.Fatal(err)
	}
	if err := gate.WriteMarkdown(&mb, rep); err != nil {
		t.Fatal(err)
	}
	if err := gate.Write(&jb, rep); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), jb.String()
}

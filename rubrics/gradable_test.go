package rubrics_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/rubrics"
)

const (
	gradableNotes   = "testdata/gradable/notes.tools.json"
	gradableAnswers = "testdata/gradable/notes.answers.jsonl"
)

// metricOf returns a surface metric's exact value ("null" for null).
func metricOf(t *testing.T, rep map[string]any, name string) string {
	t.Helper()
	ms, _ := rep["metrics"].([]any)
	for _, m := range ms {
		m := m.(map[string]any)
		if m["name"] != name {
			continue
		}
		if e, ok := m["exact"].(string); ok && e != "" {
			return e
		}
		b, _ := json.Marshal(m["value"])
		return string(b)
	}
	t.Fatalf("the report has no metric %q", name)
	return ""
}

// sameNumber reports whether two exact numbers are equal ("2/5" and "0.4").
func sameNumber(a, b string) bool {
	x, err1 := num.Parse(a)
	y, err2 := num.Parse(b)
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

// TestGradableReplay scores a three-tool surface from hand-written answers
// and checks every metric, category and the composite against values
// worked out by hand from the methodology (see the comments in
// testdata/gradable/notes.answers.jsonl):
//
//	tasks: 6 generated, 1 names a tool not on the surface: 5
//	selectionAccuracy     4/5     firstCallSuccess 2/5 (task 2: query 5; task 4: id "shopping")
//	avgStepsToCompletion  (1+1+1+2+3)/5 = 8/5
//	avgTokenCostPerTask   (2000+5600+11000+20000+26000)/5 = 12920
//	destructiveSafetyRate 1/2 (task 3 confirmed, task 4 blind)
//	defectWeight 0+1+3 = 4       descriptionQuality    1 - 4/30 = 13/15
//	ambiguousPairWeight 1.0+0.6  disambiguationQuality 1 - 1.6/10 = 21/25
//	  (search_notes/archive is named twice, low then high: it counts once, high)
//	taskEfficiency 1 - (12920-2000)/(20000-2000) = 59/150; definition tokens under 2000: 1
//	safety          30 * 1/2                                   = 15
//	legibility      30 * (0.6*4/5 + 0.25*13/15 + 0.15*21/25)   = 617/25    (24.68)
//	economics       20 * (0.6*1 + 0.4*59/150)                  = 1136/75   (15.146...)
//	discoverability 20 * (0.4*4/5 + 0.6*2/5)                   = 56/5      (11.2)
//	composite                                                  = 4952/75   (66.03), D
func TestGradableReplay(t *testing.T) {
	rep, stats := scoreReplayedWith(t, "gradable", gradableNotes, gradableAnswers)
	want := map[string]string{
		"selectionAccuracy":        "4/5",
		"firstCallSuccess":         "2/5",
		"avgStepsToCompletion":     "8/5",
		"avgTokenCostPerTask":      "12920",
		"destructiveSafetyRate":    "1/2",
		"defectWeight":             "4",
		"descriptionQuality":       "13/15",
		"ambiguousPairWeight":      "8/5",
		"disambiguationQuality":    "21/25",
		"definitionEfficiency":     "1",
		"taskEfficiency":           "59/150",
		"safety":                   "15",
		"legibility":               "617/25",
		"economics":                "1136/75",
		"discoverability":          "56/5",
		"composite":                "4952/75",
		"avgResponseTokens":        "null",
		"responseEfficiency":       "null",
		"definitionTokensSource":   `"exact"`,
		"definitionTokensEncoding": `"o200k_base"`,
	}
	for name, w := range want {
		got := metricOf(t, rep, name)
		if got != w && !sameNumber(got, w) {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
	if rep["exact"] != "4952/75" || fmt.Sprint(rep["score"]) != "66.0" || rep["grade"] != "D" {
		t.Errorf("score %v (exact %v) grade %v, want 66.0 (4952/75) D", rep["score"], rep["exact"], rep["grade"])
	}

	// The definition tokens are the canonical JSON's o200k_base tokens,
	// counted by the same function outside the rubric: Go's encoder writes
	// the same bytes here (sorted keys, no space, nothing to escape).
	// (They were 157 as UTF-8 bytes / 4; the tokenizer finds 147.)
	src, err := os.ReadFile(gradableNotes)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Tools []any }
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(doc.Tools)
	n, err := lang.CountTokens(string(b), "o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := metricOf(t, rep, "definitionTokens"), fmt.Sprint(n); got != want || n != 147 {
		t.Errorf("definitionTokens = %s, want %s (o200k_base tokens of %d bytes), 147", got, want, len(b))
	}

	// Both runs are reported; the rewrite run got every task right.
	runs := rep["runs"].(map[string]any)
	base, after := runs["baseline"].(map[string]any), runs["after_rewrite"].(map[string]any)
	for _, c := range []struct {
		run       map[string]any
		key, want string
	}{
		{base, "tasks", "5"}, {base, "selectionAccuracy", "0.8"}, {base, "destructiveCandidates", "2"}, {base, "tokensEstimated", "false"},
		{after, "tasks", "5"}, {after, "selectionAccuracy", "1"}, {after, "firstCallSuccess", "1"}, {after, "destructiveSafetyRate", "1"},
		// The rewrite run's answers report no tokens: they were counted in
		// o200k_base when asked, not estimated.
		{after, "tokensEstimated", "false"},
	} {
		if got := fmt.Sprint(c.run[c.key]); got != c.want {
			t.Errorf("runs: %s = %s, want %s", c.key, got, c.want)
		}
	}
	counted := 0
	for _, o := range rep["answers"].([]any) {
		o := o.(map[string]any)
		tokens := o["tokens"].(map[string]any)
		if fmt.Sprint(tokens["input"]) != "0" {
			continue
		}
		c, ok := o["counted_tokens"].(map[string]any)
		if !ok || c["encoding"] != "o200k_base" || fmt.Sprint(c["prompt"]) == "0" || fmt.Sprint(c["answer"]) == "0" {
			t.Errorf("the answer to %v about %v reports no tokens and has no count: %v", o["question"], o["subject"], o["counted_tokens"])
		}
		counted++
	}
	if counted == 0 {
		t.Error("no answer without reported tokens: the rewrite run's should have none")
	}
	trials := base["trials"].([]any)
	if errs := trials[1].(map[string]any)["argumentErrors"].([]any); len(errs) != 1 || !strings.Contains(errs[0].(string), "/query") {
		t.Errorf("task 2's argument errors: %v", errs)
	}

	// The categories as the methodology names them.
	cats := rep["categories"].(map[string]any)
	for k, v := range map[string]string{"safety": "15", "legibility": "24.68", "economics": "15.15", "discoverability": "11.2"} {
		if fmt.Sprint(cats[k]) != v {
			t.Errorf("categories.%s = %v, want %s", k, cats[k], v)
		}
	}
	// Confusable pairs as counted: the repeat, the self-pair and the
	// unknown tool are gone.
	if pairs := rep["confusable"].(map[string]any)["pairs"].([]any); len(pairs) != 2 {
		t.Errorf("pairs %v", pairs)
	}
	// Tools: the archive tool has three defects, a score of 0 and a
	// suggestion reported as a hypothesis.
	for _, tl := range rep["tools"].([]any) {
		tool := tl.(map[string]any)
		if tool["name"] != "archive" {
			continue
		}
		if tool["exact"] != "0" || len(tool["defects"].([]any)) != 3 {
			t.Errorf("archive: score %v defects %v", tool["score"], tool["defects"])
		}
		sugg := tool["suggestedDescription"].(map[string]any)
		if sugg["status"] != "hypothesis" || !strings.Contains(sugg["basis"].(string), "implementation") {
			t.Errorf("suggestion: %v", sugg)
		}
	}
	// 1 tasks + 3 defects + 1 confusable + 5 baseline + 5 after rewrite.
	if stats.Questions != 15 || stats.Calls != 15 {
		t.Errorf("%d questions, %d calls; want 15 and 15", stats.Questions, stats.Calls)
	}
}

// TestGradableWithResponseData: when every selection answer carries the
// tokens of the tool's response, economics weighs three terms:
//
//	avgResponseTokens  (300+900+500+4250+1550)/5 = 1500
//	responseEfficiency 1 - (1500-500)/(8000-500) = 13/15
//	economics          20 * (0.5*1 + 0.3*59/150 + 0.2*13/15) = 1187/75
//	composite          15 + 617/25 + 1187/75 + 56/5 = 5003/75 (66.71)
//
// With task 5's missing, the response data is partial and economics keeps
// its two terms (1136/75).
func TestGradableWithResponseData(t *testing.T) {
	for _, c := range []struct {
		responses map[string]int
		want      map[string]string
	}{
		{map[string]int{"task 1": 300, "task 2": 900, "task 3": 500, "task 4": 4250, "task 5": 1550}, map[string]string{
			"avgResponseTokens": "1500", "responseEfficiency": "13/15", "economics": "1187/75", "composite": "5003/75"}},
		{map[string]int{"task 1": 300, "task 2": 900, "task 3": 500, "task 4": 4250}, map[string]string{
			"economics": "1136/75", "composite": "4952/75"}},
	} {
		path := rewriteAnswers(t, func(rec map[string]any) {
			if n, ok := c.responses[rec["subject"].(string)]; ok {
				rec["answer"].(map[string]any)["response_tokens"] = n
			}
		})
		rep, _ := scoreReplayedWith(t, "gradable", gradableNotes, path)
		if len(c.responses) < 5 && metricOf(t, rep, "avgResponseTokens") != "null" {
			t.Errorf("partial response data: avgResponseTokens = %s, want null", metricOf(t, rep, "avgResponseTokens"))
		}
		for name, w := range c.want {
			if got := metricOf(t, rep, name); !sameNumber(got, w) {
				t.Errorf("%d responses: %s = %s, want %s", len(c.responses), name, got, w)
			}
		}
	}
}

// TestAfterRewriteDoesNotMoveTheScore: the after_rewrite run is recorded
// and reported, but a different outcome there leaves the score alone.
func TestAfterRewriteDoesNotMoveTheScore(t *testing.T) {
	path := rewriteAnswers(t, func(rec map[string]any) {
		if strings.HasSuffix(rec["subject"].(string), "after rewrite") {
			a := rec["answer"].(map[string]any)
			a["tool"], a["confirm"], a["steps"] = "archive", false, 9
			rec["tokens"] = map[string]any{"input": 90000, "output": 10}
		}
	})
	base, _ := scoreReplayedWith(t, "gradable", gradableNotes, gradableAnswers)
	moved, _ := scoreReplayedWith(t, "gradable", gradableNotes, path)
	if base["exact"] != moved["exact"] || base["exact"] == nil {
		t.Errorf("the score moved with the after_rewrite answers: %v -> %v", base["exact"], moved["exact"])
	}
	after := moved["runs"].(map[string]any)["after_rewrite"].(map[string]any)
	if fmt.Sprint(after["selectionAccuracy"]) != "0.2" || fmt.Sprint(after["avgStepsToCompletion"]) != "9" {
		t.Errorf("the after_rewrite run was not recorded as answered: %v", after)
	}
}

// TestGradableClampEdges: a surface past every bound. Twelve tools with
// all three defects weigh 36 (> 30), eleven high pairs weigh 11 (> 10),
// tasks cost 30000 tokens (> 20000) and the definitions are small
// (< 2000 tokens), so descriptionQuality, disambiguationQuality and
// taskEfficiency are 0 and definitionEfficiency is 1. Every task is
// chosen right with valid arguments and no task is destructive, so the
// safety rate is 1 by definition:
//
//	safety 30, legibility 30 * 0.6 = 18, economics 20 * 0.6 = 12,
//	discoverability 20, composite 80 (B).
func TestGradableClampEdges(t *testing.T) {
	dir := t.TempDir()
	var tools, lines []string
	var tasks []string
	var pairs []string
	for i := range 12 {
		name := fmt.Sprintf("t%d", i)
		tools = append(tools, fmt.Sprintf(`{"name": %q, "inputSchema": {"type": "object"}}`, name))
		tasks = append(tasks, fmt.Sprintf(`{"tool": %q, "task": "do thing %d", "destructive": false}`, name, i))
		lines = append(lines, fmt.Sprintf(`{"kind": "gradable.defects", "subject": %q, "answer": {"defects": ["name_restates_behavior", "params_unexplained", "no_return_description"], "suggested_description": "", "notes": ""}}`, name))
		lines = append(lines, fmt.Sprintf(`{"kind": "gradable.selection", "subject": "task %d", "tokens": {"input": 29000, "output": 1000}, "answer": {"tool": %q, "arguments": {}, "confirm": false, "steps": 1}}`, i+1, name))
		if i > 0 {
			pairs = append(pairs, fmt.Sprintf(`{"a": "t0", "b": %q, "severity": "high"}`, name))
		}
	}
	lines = append(lines,
		`{"kind": "gradable.tasks", "subject": "surface", "answer": {"tasks": [`+strings.Join(tasks, ",")+`]}}`,
		`{"kind": "gradable.confusable", "subject": "surface", "answer": {"pairs": [`+strings.Join(pairs, ",")+`]}}`)
	toolsFile := filepath.Join(dir, "tools.json")
	answers := filepath.Join(dir, "answers.jsonl")
	if err := os.WriteFile(toolsFile, []byte(`{"tools": [`+strings.Join(tools, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(answers, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// No suggestion is written, so nothing would change in a rewrite run,
	// and none is asked: the answers file has no line for one.
	rep, stats := scoreReplayedWith(t, "gradable", toolsFile, answers)
	if stats.Questions != 1+12+1+12 {
		t.Errorf("%d questions, want 26 (no after_rewrite run)", stats.Questions)
	}
	for name, w := range map[string]string{
		"defectWeight": "36", "descriptionQuality": "0",
		"ambiguousPairWeight": "11", "disambiguationQuality": "0",
		"avgTokenCostPerTask": "30000", "taskEfficiency": "0", "definitionEfficiency": "1",
		"destructiveSafetyRate": "1", "selectionAccuracy": "1", "firstCallSuccess": "1",
		"safety": "30", "legibility": "18", "economics": "12", "discoverability": "20", "composite": "80",
	} {
		if got := metricOf(t, rep, name); !sameNumber(got, w) {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
	if rep["grade"] != "B" {
		t.Errorf("grade %v, want B", rep["grade"])
	}
	if n := rep["runs"].(map[string]any)["baseline"].(map[string]any)["destructiveCandidates"]; fmt.Sprint(n) != "0" {
		t.Errorf("destructiveCandidates = %v, want 0", n)
	}
}

// rewriteAnswers copies the notes answers with edit applied to each
// record, and returns the copy's path.
func rewriteAnswers(t *testing.T, edit func(rec map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(gradableAnswers)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		edit(rec)
		nb, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(nb))
	}
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTasksPerToolIsConfigurable: the number of tasks per tool is data in
// the rubric. A copy that asks for 1 task per tool gets 1 per tool from
// the heuristic, and has a digest of its own, so its answers and scores
// are never mixed with the original's.
func TestTasksPerToolIsConfigurable(t *testing.T) {
	heavytest.Later(t)
	src, err := rubrics.Source("gradable")
	if err != nil {
		t.Fatal(err)
	}
	orig := builtin(t, "gradable")
	edited := strings.Replace(string(src), "'perTool': 3,", "'perTool': 1,", 1)
	if edited == string(src) {
		t.Fatal("the rubric no longer says 'perTool': 3")
	}
	r, err := rubric.Load("gradable-1.hcl", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	if r.Digest == orig.Digest {
		t.Error("changing the number of tasks did not move the digest")
	}
	s := readSurface(t, "../judges/heuristic/testdata/tidy.tools.json")
	for _, c := range []struct {
		r    *rubric.Rubric
		want int
	}{{orig, 3}, {r, 1}} {
		rep, _ := gradeHeuristic(t, c.r, s)
		base := rep.Sections
		var tasks int
		for _, f := range base {
			if f.Name == "runs" {
				b, _ := json.Marshal(f.Value)
				var runs struct{ Baseline struct{ Tasks int } }
				if err := json.Unmarshal(b, &runs); err != nil {
					t.Fatal(err)
				}
				tasks = runs.Baseline.Tasks
			}
		}
		if tasks != c.want*len(s.Tools) {
			t.Errorf("perTool %d: %d tasks for %d tools", c.want, tasks, len(s.Tools))
		}
	}
}

// TestGradableLabelsMatchItsInputs: the versions in the judge block are
// the ones the questions send, so a new prompt or generator cannot keep
// an old label.
func TestGradableLabelsMatchItsInputs(t *testing.T) {
	r := builtin(t, "gradable")
	inputs := map[string]string{}
	for _, q := range r.Questions {
		inputs[q.Name] = q.Input.Source
	}
	for q, label := range map[string]string{"tasks": "taskGeneratorVersion", "selection": "promptTemplateVersion"} {
		v := r.JudgeLabels[label]
		if v == "" || !strings.Contains(inputs[q], "'"+v+"'") {
			t.Errorf("label %s = %q, but question %s's input does not send it:\n%s", label, v, q, inputs[q])
		}
	}
}

// Only a rubric whose surface formulas read what answers cost has them
// counted: Gradable reads usage.selection, TDQS reads no usage.
func TestReadsUsage(t *testing.T) {
	for name, want := range map[string]bool{"gradable": true, "tdqs": false, "schema-quality": false} {
		if got := builtin(t, name).ReadsUsage(); got != want {
			t.Errorf("%s reads usage: %v, want %v", name, got, want)
		}
	}
}

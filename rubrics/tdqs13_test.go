package rubrics_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/judges/replay"
)

// TestTDQSInvocationCostAndShadowing replays hand-written answers for a
// server of three tools and checks the signals of TDQS v1.3 and its
// shadowing check against numbers counted by hand:
//
//	get_stat     4 required scalars: fields 4, depth 1, no union: cost 4
//	query_panel  query (1) requiring population, window (2) and measure
//	             (1, plus the widest branch of its three-branch oneOf,
//	             which requires kind: 1): fields 5; root 1, query 2, the
//	             branch objects 3; 3 - 1 = 2 union choices; the optional
//	             filters (deeper) and the nullable note cost nothing:
//	             5 + 2 x 2 + 2 x 2 = 13
//	ping         no input schema: 0, 0, 0, cost 0
//
// The prefilter pairs a tool with its dearest sibling costing at most
// half as much and at least 4 less: get_stat (4) with ping (0), and
// query_panel (13) with get_stat (4), not ping. Of the six pairs the
// judge names, only the first query_panel/get_stat survives.
// definitionBytes are the UTF-8 bytes of the canonical JSON of the six
// definition fields; ping's is
// {"annotations":null,"description":"Check that the server answers.","inputSchema":null,"name":"ping","outputSchema":null,"title":null},
// 133 bytes.
func TestTDQSInvocationCostAndShadowing(t *testing.T) {
	rep, _ := scoreReplayed(t, "testdata/tdqs13/shadow.tools.json", "testdata/tdqs13/shadow.answers.jsonl")
	type sig struct{ fields, depth, unions, cost, bytes int }
	wants := map[string]sig{
		"get_stat":    {4, 1, 0, 4, 355},
		"query_panel": {5, 3, 2, 13, 827},
		"ping":        {0, 0, 0, 0, 133},
	}
	flags := map[string][]any{"get_stat": {}, "query_panel": {"Shadowing Risk"}, "ping": {}}
	for _, x := range rep["tools"].([]any) {
		tool := x.(map[string]any)
		name := tool["name"].(string)
		w := wants[name]
		cs := tool["contextSignals"].(map[string]any)
		got := sig{atoi(t, cs["requiredFieldCount"]), atoi(t, cs["schemaDepth"]), atoi(t, cs["unionChoiceCount"]), atoi(t, cs["invocationCost"]), atoi(t, cs["definitionBytes"])}
		if got != w {
			t.Errorf("%s: fields, depth, unions, cost, bytes = %+v, want %+v", name, got, w)
		}
		if !reflect.DeepEqual(tool["serverFlags"], flags[name]) {
			t.Errorf("%s: serverFlags %v, want %v", name, tool["serverFlags"], flags[name])
		}
		// hasOutputSchema is still reported: a bare {"type": "object"} is
		// an output schema, though it excuses nothing.
		if want := name == "query_panel"; cs["hasOutputSchema"] != want {
			t.Errorf("%s: hasOutputSchema %v", name, cs["hasOutputSchema"])
		}
	}
	risks, _ := json.Marshal(rep["server"].(map[string]any)["shadowingRisks"])
	want := `[{"cheaperSibling":"get_stat","cheaperSiblingInvocationCost":4,"invocationCost":13,"justification":"Both answer what a stat is for a player; get_stat takes four flat fields.","tool":"query_panel"}]`
	if string(risks) != want {
		t.Errorf("shadowingRisks\n%s\nwant\n%s", risks, want)
	}
	// Shadowing moves no score: 4 everywhere gives TDQS 4.0, and the
	// coherence (3+4+3+3)/4 = 3.25, up to 3.3.
	if s := rep["server"].(map[string]any)["coherenceScore"].(json.Number).String(); !same(s, "3.3") {
		t.Errorf("coherence %s", s)
	}
}

// capture records the prompts a judge is sent, answering from replay.
type capture struct {
	*replay.Judge
	mu      sync.Mutex
	prompts map[string]judge.Question
}

func (c *capture) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	c.mu.Lock()
	c.prompts[q.Subject] = q
	c.mu.Unlock()
	return c.Judge.Ask(ctx, q)
}

// TestTDQSPromptsV13: the tool's prompt shows the output schema itself
// and no longer states whether there is one, nor any cost; the coherence
// prompt lists each tool's cost and the pairs to judge.
func TestTDQSPromptsV13(t *testing.T) {
	j := replay.New()
	id, err := j.Configure(context.Background(), judge.Config{Options: map[string]string{"answers": "testdata/tdqs13/shadow.answers.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	c := &capture{Judge: j, prompts: map[string]judge.Question{}}
	if _, _, err := scoreWith(builtin(t, "tdqs"), readSurface(t, "testdata/tdqs13/shadow.tools.json"), c, id); err != nil {
		t.Fatal(err)
	}
	qp := c.prompts["query_panel"]
	if strings.Contains(qp.User, "output schema:") || strings.Contains(qp.User, "cost") || strings.Contains(qp.User, "827") {
		t.Errorf("the tool's prompt states a withheld signal:\n%s", qp.User)
	}
	if !strings.Contains(qp.User, "[begin output-schema") || !strings.Contains(qp.System, `a bare {"type": "object"}`) {
		t.Errorf("the tool's prompt lacks the output schema or the rule on it:\n%s\n%s", qp.System, qp.User)
	}
	coh := c.prompts["surface"].User
	for _, s := range []string{
		"query_panel [cost 13: 5 required fields, depth 3, 2 union choices]",
		"get_stat [cost 4: 4 required fields, depth 1, 0 union choices]",
		"ping [cost 0: 0 required fields, depth 0, 0 union choices]",
		"get_stat (cost 4) may be shadowed by ping (cost 0)\nquery_panel (cost 13) may be shadowed by get_stat (cost 4)\n",
	} {
		if !strings.Contains(coh, s) {
			t.Errorf("the coherence prompt lacks %q:\n%s", s, coh)
		}
	}
}

// TestTDQSPartialRollup: one tool of five stays unreadable, so 4 of 5
// (80%) are scored, and the rollups are computed over them, by hand:
//
//	list_items   5 everywhere: 500, 5.0
//	get_item     4 everywhere: 400, 4.0
//	create_item  3 everywhere: 300, 3.0
//	delete_item  5 4 3 4 5 2: 125+80+60+60+50+20 = 395, 3.95 up to 4.0
//
// mean 16/4 = 4.0, min 3.0: description quality 0.6 x 4 + 0.4 x 3 = 3.6;
// coherence (4+3+3+4)/4 = 3.5; overall 0.7 x 3.6 + 0.3 x 3.5 = 3.57, 3.6.
// update_item is listed as unscored; toolCount is 5, scoredToolCount 4.
// With a second tool unreadable, 3 of 5 (60%) is too few: no report.
func TestTDQSPartialRollup(t *testing.T) {
	rep, _ := scoreReplayed(t, "testdata/tdqs13/partial.tools.json", "testdata/tdqs13/partial.answers.jsonl")
	server := rep["server"].(map[string]any)
	for k, v := range map[string]string{
		"toolCount": "5", "scoredToolCount": "4", "meanTdqs": "4", "minTdqs": "3",
		"descriptionQualityScore": "3.6", "coherenceScore": "3.5", "overallScore": "3.6",
	} {
		if got, ok := server[k].(json.Number); !ok || !same(got.String(), v) {
			t.Errorf("server.%s = %v, want %s", k, server[k], v)
		}
	}
	var names []string
	for _, x := range rep["tools"].([]any) {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	if strings.Join(names, " ") != "list_items get_item create_item delete_item" {
		t.Errorf("scored tools %v", names)
	}
	unscored := rep["unscored"].([]any)
	if len(unscored) != 1 {
		t.Fatalf("unscored %v", unscored)
	}
	u := unscored[0].(map[string]any)
	if u["name"] != "update_item" || !strings.Contains(u["reason"].(string), "still unreadable after 3 attempts") {
		t.Errorf("unscored %v", u)
	}
	if a := u["answers"].([]any)[0].(map[string]any); a["answer"] != nil || a["unreadable"] == "" {
		t.Errorf("the unreadable observation: %v", a)
	}
	warned := false
	for _, w := range rep["warnings"].([]any) {
		warned = warned || strings.Contains(w.(string), "1 of the 5 tools could not be scored") && strings.Contains(w.(string), "update_item")
	}
	if !warned {
		t.Errorf("no warning names the unscored tool: %v", rep["warnings"])
	}

	// A second unreadable tool: 3 of 5 is below 80%.
	b, err := os.ReadFile("testdata/tdqs13/partial.answers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"subject": "delete_item"`) {
			l = `{"kind": "tdqs.tool", "subject": "delete_item", "answer": {"scores": {}}, "model": "hand-written"}`
		}
		lines = append(lines, l)
	}
	two := filepath.Join(t.TempDir(), "two.jsonl")
	if err := os.WriteFile(two, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	j := replay.New()
	id, err := j.Configure(context.Background(), judge.Config{Options: map[string]string{"answers": two}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = scoreWith(builtin(t, "tdqs"), readSurface(t, "testdata/tdqs13/partial.tools.json"), j, id)
	if err == nil || !strings.Contains(err.Error(), "2 of the 5 tools could not be scored") || !strings.Contains(err.Error(), "80%") {
		t.Errorf("3 of 5 scored: %v, want the run refused", err)
	}
}

func atoi(t *testing.T, v any) int {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	i, err := n.Int64()
	if err != nil {
		t.Fatal(err)
	}
	return int(i)
}

// TestTDQSPartialRescores: a report with an unscored tool rescores from
// its own observations, with no judge, to the same scores and the same
// unscored tool.
func TestTDQSPartialRescores(t *testing.T) {
	j := replay.New()
	id, err := j.Configure(context.Background(), judge.Config{Options: map[string]string{"answers": "testdata/tdqs13/partial.answers.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	r := builtin(t, "tdqs")
	s := readSurface(t, "testdata/tdqs13/partial.tools.json")
	first, _, err := scoreWith(r, s, j, id)
	if err != nil {
		t.Fatal(err)
	}
	again, err := score.Run(context.Background(), r, s, score.Options{Asker: ask.FromReport(first)})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.UnscoredTools) != 1 || again.UnscoredTools[0].Name != "update_item" || *again.Score != *first.Score || len(again.Tools) != 4 {
		t.Errorf("rescored: score %v (was %v), %d tools, unscored %+v", *again.Score, *first.Score, len(again.Tools), again.UnscoredTools)
	}
}

// TestTDQSUpstreamNamesTheSpecificationsPrompts: the example that asks
// with the specification's own prompts names each by the README at
// commit b9881b0, its sha256 and its fenced block, fills the two user
// messages from placeholders, and so has a digest of its own.
func TestTDQSUpstreamNamesTheSpecificationsPrompts(t *testing.T) {
	r := builtin(t, "../examples/rubrics/tdqs-upstream.hcl")
	const readme = "https://raw.githubusercontent.com/glama-ai/tool-definition-quality-score/b9881b0cfec88969e42672c92544487ca191a992/README.md"
	const sum = "3df9d731cb064befc778083a881c796c67b4c6115de725c29140cf02938fdecf"
	want := map[string][2]int{"tool": {13, 14}, "coherence": {15, 16}}
	for _, q := range r.Questions {
		blocks, ok := want[q.Name]
		if !ok {
			t.Fatalf("unexpected question %s", q.Name)
		}
		for i, p := range []*rubric.Prompt{q.System, q.User} {
			if p.URL != readme || p.SHA256 != sum || p.Block != blocks[i] || p.Fill != (i == 1) || p.Text != "" {
				t.Errorf("%s prompt %d: %+v", q.Name, i, p)
			}
		}
	}
	if r.Digest == builtin(t, "tdqs").Digest || !r.Partial() {
		t.Errorf("digest %s, min_scored %s", r.Digest, r.MinScored.Exact())
	}
}

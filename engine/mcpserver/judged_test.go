package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
)

// Two rubrics: one scores from the definitions alone, the other asks a
// judge a question about each tool.
const (
	plainRubric = `rubric "plain" {
  version = "1"
  tool { score = "size(tool.description)" }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`
	judgedRubric = `rubric "judged" {
  version = "1"
  grades  = { A = 0 }
  question "rate" {
    kind    = "test.rate"
    per     = "tool"
    input   = "{'name': tool.name}"
    system  = "Rate."
    user    = "{{ .name }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"], \"properties\": {\"n\": {\"type\": \"integer\"}}}"
  }
  tool { score = "answers.rate.n" }
  surface { score = "min(tools.map(t, t.score))" }
}`
)

// refusingPlugins start no judge: each refuses as err says; with no
// err, a judge starts (one that answers nothing).
type refusingPlugins struct{ err error }

func (p refusingPlugins) Judge(context.Context, string, judge.Config) (run.Judge, error) {
	if p.err == nil {
		return silentJudge{}, nil
	}
	return nil, p.err
}

// silentJudge starts, and answers no question.
type silentJudge struct{}

func (silentJudge) Describe(context.Context) (judge.Identity, error) {
	return silentJudge{}.Identity(), nil
}
func (silentJudge) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return silentJudge{}.Identity(), nil
}
func (silentJudge) Ask(context.Context, judge.Question) (judge.Answer, error) {
	return judge.Answer{}, errors.New("no answer")
}
func (silentJudge) Name() string             { return "silent" }
func (silentJudge) Identity() judge.Identity { return judge.Identity{Plugin: "silent", Version: "1"} }
func (silentJudge) SHA256() string           { return "" }
func (silentJudge) Close()                   {}

func (p refusingPlugins) Transport(context.Context, string) (run.Transport, error) {
	return nil, errors.New("no transport here")
}

// judgedServer serves plainRubric and judgedRubric as its built-ins,
// with judges that refuse as err says.
func judgedServer(err error) *Server { return judgedServerBatch(err, false) }

// judgedServerBatch is judgedServer asking through provider batches
// when batch is set.
func judgedServerBatch(err error, batch bool) *Server {
	src := map[string]string{"plain": plainRubric, "judged": judgedRubric}
	return New(Options{
		DefaultRubric: "plain",
		Run:           run.Options{Plugins: refusingPlugins{err}, Batch: batch},
		Rubrics: Rubrics{
			Find: func(_ context.Context, ref string) (*rubric.Rubric, error) {
				text, ok := src[ref]
				if !ok {
					return nil, fmt.Errorf("no rubric %s", ref)
				}
				return rubric.Load(ref+".hcl", []byte(text))
			},
			Source:   func(ref string) ([]byte, error) { return []byte(src[ref]), nil },
			Builtins: []string{"judged", "plain"},
		},
	})
}

// callTool calls the tool name of s with args, as a client would.
func callTool(t *testing.T, s *Server, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	for _, tl := range tools {
		if tl.name != name {
			continue
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		res, err := s.wrap(paramsOf(tl.name, tl.input), tl.work(s))(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// TestRubricsSayWhichAskAJudge: the rubrics tool says of each rubric
// whether it asks a judge questions, and which, so that a client can
// pick one for a run without a judge; its text is its structured result.
func TestRubricsSayWhichAskAJudge(t *testing.T) {
	s := judgedServer(nil)
	defer s.Close()
	res := callTool(t, s, "rubrics", map[string]any{"rubric": "all"})
	if res.IsError {
		t.Fatalf("rubrics: %v", res.Content)
	}
	type question struct{ Name, Kind, Per string }
	var out struct {
		Rubrics []struct {
			Name      string
			AsksJudge *bool `json:"asks_judge"`
			Questions []question
		}
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(mcp.TextContent).Text; text != string(b) {
		t.Errorf("the text is not the structured result:\n%s\n%s", text, b)
	}
	want := map[string][]question{"judged": {{"rate", "test.rate", "tool"}}, "plain": {}}
	if len(out.Rubrics) != len(want) {
		t.Fatalf("rubrics: %s", b)
	}
	for _, r := range out.Rubrics {
		w, ok := want[r.Name]
		switch {
		case !ok:
			t.Errorf("a rubric %q", r.Name)
		case r.AsksJudge == nil || *r.AsksJudge != (len(w) > 0):
			t.Errorf("%s: asks_judge %v, want %v", r.Name, r.AsksJudge, len(w) > 0)
		case fmt.Sprint(r.Questions) != fmt.Sprint(w) || r.Questions == nil:
			t.Errorf("%s: questions %v, want %v", r.Name, r.Questions, w)
		}
	}
}

// TestScoreWithoutAJudge: score with a rubric that asks a judge, whose
// judge does not start, says why and names the rubrics that need no
// judge; a rubric that needs none scores without one.
func TestScoreWithoutAJudge(t *testing.T) {
	tools := map[string]any{"tools": map[string]any{"tools": []any{map[string]any{
		"name": "echo", "description": "Echoes the text it is given.", "inputSchema": map[string]any{"type": "object"}}}}}
	const none = `; the rubric judged asks a judge questions, and needs a judge that starts: leave judge out for the default, the offline heuristic judge, or score with a rubric that asks no question and needs no judge: plain (the rubrics tool says which rubrics ask a judge)`
	cases := []struct {
		name   string
		err    error  // the judge's refusal
		rubric string // the call's
		judge  string // the call's
		batch  bool   // the server asks through provider batches
		want   string // the call's error; empty: it scores
	}{
		{name: "a judge that needs a setting", err: &judge.SettingError{Judge: "openai", Setting: "model", What: "a model", Value: "NAME", Advice: "pass --model NAME"},
			rubric: "judged", judge: "openai",
			want: `the openai judge needs a model: give the judge argument as "openai:model=NAME"` + none},
		// A judge's advice to rubric score's user (a flag) is given in
		// the judge argument: a client has no flags.
		{name: "a judge without its key", err: errors.New(`the openai judge needs an API key for api.openai.com: set OPENAI_API_KEY, or name another variable with --judge-option api_key_env=NAME (or in --judge openai:api_key_env=NAME)`),
			rubric: "judged", judge: "openai:model=gpt-4o-mini",
			want: `the openai judge needs an API key for api.openai.com: set OPENAI_API_KEY, or name another variable with the judge argument "openai:model=gpt-4o-mini,api_key_env=NAME"; rubric mcp gives its judges the environment it was started with, so put the variable in the env of rubric's entry in your MCP client's configuration (such as claude mcp add -e NAME=KEY rubric -- rubric mcp) and restart the server` + none},
		{name: "a judge that is not there", err: errors.New(`no judge plugin "nosuch"`),
			rubric: "judged", judge: "nosuch",
			want: `no judge plugin "nosuch"` + none},
		{name: "the default judge", err: errors.New("the heuristic judge broke"),
			rubric: "judged",
			want:   `the heuristic judge broke; the rubric judged asks a judge questions, and needs a judge that starts: score with a rubric that asks no question and needs no judge: plain (the rubrics tool says which rubrics ask a judge)`},
		{name: "a rubric that asks no question", err: errors.New("not started"), rubric: "plain"},
		// The judge started; what failed after it is no judge that did
		// not start, and gets no such advice.
		{name: "a judge that started, and batches it does not answer", rubric: "judged", batch: true,
			want: `--batch: the judge "silent" does not answer in batches (its plugin does not advertise the capability "batch"); use a judge that does, such as openai or anthropic, or leave --batch out`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := judgedServerBatch(c.err, c.batch)
			defer s.Close()
			args := map[string]any{"target": tools, "rubric": c.rubric}
			if c.judge != "" {
				args["judge"] = c.judge
			}
			res := callTool(t, s, "score", args)
			got := ""
			if res.IsError {
				got = res.Content[0].(mcp.TextContent).Text
			}
			if !strings.HasSuffix(got, c.want) || (c.want == "") != (got == "") {
				t.Errorf("score: %q,\nwant it to end %q", got, c.want)
			}
		})
	}
}

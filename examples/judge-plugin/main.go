// Command rubric-judge-wordcount is an example judge plugin: a judge that
// answers by counting, not by asking a model, built to show how little a
// plugin needs. It answers every question with the number of words in the
// description found in the question's structured input:
//
//	{"words": 12, "verdict": "ok"}
//
// where the verdict is "missing" (no description), "terse" (under 8 words)
// or "ok". It accepts one model, "wordcount-1", and refuses any other, the
// way a real judge refuses a model it cannot serve.
//
// It answers the questions of examples/rubrics/wordcount.hcl (kind
// "wordcount.words"); a built-in rubric's questions ask for other
// answers, which its counts do not satisfy. Build and install it, then
// score with that rubric:
//
//	go build -o ~/.local/share/rubric/plugins/rubric-judge-wordcount ./examples/judge-plugin
//	rubric plugins list
//	rubric score --rubric examples/rubrics/wordcount.hcl --judge wordcount --model wordcount-1 tools.json
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/plugins/sdk"
)

const (
	name    = "wordcount"
	version = "0.1.0"
	model   = "wordcount-1"
)

type wordcount struct{}

func (wordcount) identity() judge.Identity {
	return judge.Identity{Plugin: name, Version: version, Provider: "local", Model: model, Heuristic: true}
}

// Describe implements judge.Judge.
func (w wordcount) Describe(context.Context) (judge.Identity, error) { return w.identity(), nil }

// Configure implements judge.Judge: only its own model is accepted.
func (w wordcount) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	if c.Model != "" && c.Model != model {
		return judge.Identity{}, fmt.Errorf("this judge answers only as model %q, not %q", model, c.Model)
	}
	return w.identity(), nil
}

// Ask implements judge.Judge.
func (wordcount) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	var in struct {
		Description string `json:"description"`
		Tool        struct {
			Description string `json:"description"`
		} `json:"tool"`
	}
	if len(q.Input) > 0 {
		if err := json.Unmarshal(q.Input, &in); err != nil {
			return judge.Answer{}, fmt.Errorf("the question's input is not a JSON object: %w", err)
		}
	}
	desc := in.Description
	if desc == "" {
		desc = in.Tool.Description
	}
	words := len(strings.Fields(desc))
	verdict := "ok"
	switch {
	case words == 0:
		verdict = "missing"
	case words < 8:
		verdict = "terse"
	}
	out, err := json.Marshal(map[string]any{"words": words, "verdict": verdict})
	if err != nil {
		return judge.Answer{}, err
	}
	return judge.Answer{JSON: out, Model: model}, nil
}

func main() { sdk.ServeJudge(wordcount{}) }

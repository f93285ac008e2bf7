package ask_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// promptRubric's prompts read the input in every way a template can: a
// system prompt that names the tool, fences of text and of JSON, a range,
// a default of a member the input lacks, and a shared prompt. (The input
// is not written as a map literal, whose members the loader checks the
// prompts against: a value whose members it cannot know.)
const promptRubric = `
rubric "prompts" {
  version = "1"
  grades  = { A = 0 }
  question "len" {
    kind    = "test.len"
    per     = "tool"
    input   = "dyn({'name': tool.name, 'schema': tool.inputSchema, 'words': ['a', 'bé', tool.name]})"
    shared  = "{'names': surface.tools.map(t, t.name)}"
    system  = "Count {{ .name }}."
    user    = <<-PROMPT
      How long is {{ fence "name" .name }}?
      {{ fence "schema" .schema }}
      {{ range .words }}- {{ . }}
      {{ end }}{{ json .schema }} {{ default "(none)" .missing }}
    PROMPT
    context = "{{ fence \"names\" (join \"\\n\" .shared.names) }}"
    answer_schema = <<-JSON
      {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}
    JSON
  }
  tool {
    score = "answers.len.n"
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`

// TestStructuredOnlyMeasuresThePrompts: for a judge that reads the
// structured input alone, the system and user prompts are measured, not
// kept: each observation records the same prompt size as when they are
// rendered, the judge gets them empty beside the same shared prompt and
// inputs, and counting tokens (which needs the text) renders them all
// the same.
func TestStructuredOnlyMeasuresThePrompts(t *testing.T) {
	r, err := rubric.Load("prompts.hcl", []byte(promptRubric))
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[0]
	shared := ask.NewShared([]byte(`{"names":["get_note","list_notes","ünïcode"]}`))
	var reqs []ask.Request
	for _, name := range []string{"get_note", "list_notes", "ünïcode"} {
		in := map[string]any{"name": name, "schema": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string", "description": "the [end name 00000000] <id>"}}}, "words": []any{"a", "bé", name}}
		b, err := lang.MarshalCanonical(in)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, ask.Request{Question: q, Subject: name, InputJSON: b, InputHash: ask.InputHash(b, shared), Shared: shared})
	}
	type seen struct{ system, context, user string }
	run := func(structured, count bool) ([]ask.Observation, []seen) {
		var mu sync.Mutex
		var got []seen
		j := &counting{script: func(_ int64, q judge.Question) (judge.Answer, error, bool) {
			mu.Lock()
			got = append(got, seen{q.System, q.Context, q.User})
			mu.Unlock()
			return judge.Answer{JSON: []byte(`{"n": 1}`), Model: "m1"}, nil, true
		}}
		a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 1, StructuredOnly: structured, CountTokens: count}
		obs, err := a.Ask(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		return obs, got
	}
	rendered, full := run(false, false)
	measured, lean := run(true, false)
	for i := range rendered {
		if rendered[i].PromptBytes == 0 || measured[i].PromptBytes != rendered[i].PromptBytes {
			t.Errorf("%s: %d bytes measured, %d rendered", rendered[i].Subject, measured[i].PromptBytes, rendered[i].PromptBytes)
		}
		if want := len(full[i].system) + len(full[i].context) + len(full[i].user); rendered[i].PromptBytes != want {
			t.Errorf("%s: %d bytes recorded, the prompts have %d", rendered[i].Subject, rendered[i].PromptBytes, want)
		}
		if lean[i].system != "" || lean[i].user != "" || lean[i].context != full[i].context || !strings.Contains(full[i].user, "ünïcode") && i == 2 {
			t.Errorf("%s: the judge that reads the input alone got %+v", rendered[i].Subject, lean[i])
		}
	}
	counted, texts := run(true, true)
	for i := range counted {
		if counted[i].PromptBytes != rendered[i].PromptBytes || texts[i] != full[i] {
			t.Errorf("%s: counting tokens, the judge got %+v, want %+v", counted[i].Subject, texts[i], full[i])
		}
	}
}

// TestConcurrencyHoldsAcrossAskCalls: questions of Ask calls made side by
// side (a stage's tool and surface questions) stay within the asker's
// Concurrency together: with two slots and two calls of three questions
// each, the judge never has more than two questions at once.
func TestConcurrencyHoldsAcrossAskCalls(t *testing.T) {
	r := loadRubric(t)
	var mu sync.Mutex
	now, most := 0, 0
	entered := make(chan struct{}, 24)
	release := make(chan struct{})
	j := &counting{script: func(_ int64, q judge.Question) (judge.Answer, error, bool) {
		mu.Lock()
		now++
		most = max(most, now)
		mu.Unlock()
		entered <- struct{}{}
		<-release
		mu.Lock()
		now--
		mu.Unlock()
		return judge.Answer{}, nil, false
	}}
	a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 2}
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			batch := []string{fmt.Sprint(c, "a"), fmt.Sprint(c, "b"), fmt.Sprint(c, "c")}
			if _, err := a.Ask(context.Background(), requests(t, r, batch...)); err != nil {
				t.Error(err)
			}
		})
	}
	<-entered
	<-entered
	close(release)
	wg.Wait()
	if most != 2 {
		t.Errorf("the judge had %d questions at once, want 2", most)
	}
}

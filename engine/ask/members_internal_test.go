package ask

import (
	"context"
	"testing"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestMemberMemoKeepsOnlyWhatAMemberAloneWould: an answer outside the
// question's schema is not kept; one kept is read back only for a member
// pinned to the model that gave it (a dated snapshot of it is that
// model); a call asking afresh reads nothing; a call carrying no
// question (an asker without a cache) keeps nothing.
func TestMemberMemoKeepsOnlyWhatAMemberAloneWould(t *testing.T) {
	r := oneQuestion(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := MemberMemo{Cache: store}
	id := judge.Identity{Plugin: "openai", Version: "1", Model: "gpt-x"}
	call := func(subject string, fresh bool) context.Context {
		return withAsked(context.Background(), &asked{rubric: r.Digest, question: r.Questions[0], kind: "t.q", subject: subject, inputHash: "h-" + subject, fresh: fresh})
	}
	for _, tt := range []struct {
		name    string
		subject string
		answer  string
		model   string
		member  judge.Identity
		fresh   bool
		kept    bool
	}{
		{"a valid answer", "a", `{"n": 3}`, "gpt-x", id, false, true},
		{"outside the schema", "b", `{"n": -1}`, "gpt-x", id, false, false},
		{"no JSON", "c", `three`, "gpt-x", id, false, false},
		{"a dated snapshot of the pinned model", "d", `{"n": 3}`, "gpt-x-2025-01-01", id, false, true},
		{"another model", "e", `{"n": 3}`, "gpt-y", id, false, false},
		{"asked afresh", "f", `{"n": 3}`, "gpt-x", id, true, false},
	} {
		m.Put(call(tt.subject, tt.fresh), tt.member, judge.Question{}, judge.Answer{JSON: []byte(tt.answer), Model: tt.model})
		a, ok := m.Get(call(tt.subject, tt.fresh), tt.member, judge.Question{})
		if ok != tt.kept {
			t.Errorf("%s: read back %v (%s), want %v", tt.name, ok, a.JSON, tt.kept)
		}
		if ok && (string(a.JSON) != `{"n":3}` || a.Tokens != (judge.Tokens{})) {
			t.Errorf("%s: read back %s with tokens %+v, want the canonical answer at no cost", tt.name, a.JSON, a.Tokens)
		}
	}
	// Another member is another key.
	if _, ok := m.Get(call("a", false), judge.Identity{Plugin: "openai", Version: "2", Model: "gpt-x"}, judge.Question{}); ok {
		t.Error("another member read member 1's answer")
	}
	// No question in the call: nothing kept, nothing read.
	m.Put(context.Background(), id, judge.Question{}, judge.Answer{JSON: []byte(`{"n": 3}`), Model: "gpt-x"})
	if _, ok := m.Get(context.Background(), id, judge.Question{}); ok {
		t.Error("a call without a question read an answer")
	}
}

// oneQuestion is a rubric of one question per tool, "t.q", whose answer
// is {"n": a whole number of at least 0}.
func oneQuestion(t *testing.T) *rubric.Rubric {
	t.Helper()
	r, err := rubric.Load("t.hcl", []byte(`rubric "t" {
  version = "1"
  grades  = { A = 0 }
  question "q" {
    kind   = "t.q"
    per    = "tool"
    input  = "{'name': tool.name}"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\":\"object\",\"required\":[\"n\"],\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":0}}}"
  }
  tool {
    score = "answers.q.n"
  }
  surface {
    score = "0"
  }
}`))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

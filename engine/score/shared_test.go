package score_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// sharedRubric asks of each tool whether it is the first, sharing the
// tools' names: once whole (question "first"), and once by entry, the
// names as they are or with a mark (question "loud").
const sharedRubric = `
rubric "shared" {
  version = "1"
  grades  = { A = 1, F = 0 }
  question "first" {
    kind    = "test.first"
    per     = "tool"
    input   = "{'name': tool.name}"
    shared  = "{'names': surface.tools.map(t, t.name)}"
    system  = "Say whether the tool comes first."
    context = "Tools: {{ join \", \" .shared.names }}\n"
    user    = "Is {{ .name }} first?"
    answer_schema = "{\"type\": \"object\", \"required\": [\"first\"]}"
  }
  question "loud" {
    kind    = "test.loud"
    per     = "tool"
    input   = "{'name': tool.name}"
    shared  = "{'quiet': surface.tools.map(t, t.name), 'loud': surface.tools.map(t, t.name + '!')}"
    share   = "tool.name.startsWith('w') ? 'loud' : 'quiet'"
    system  = "Say whether the tool comes first."
    context = "Tools: {{ join \", \" .shared }}\n"
    user    = "Is {{ .name }} first?"
    answer_schema = "{\"type\": \"object\", \"required\": [\"first\"]}"
  }
  tool {
    score = "answers.first.first && answers.loud.first ? 1 : 0"
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`

// TestSharedValues: what a question shares goes to the judge beside each
// question's own input, the same bytes and hash for every question that
// shares it, and its prompt is rendered once, before the question's own;
// an entry named by share goes only to the questions that name it; and
// the answers are kept under a hash of the input and the shared value
// together.
func TestSharedValues(t *testing.T) {
	r, err := rubric.Load("shared.hcl", []byte(sharedRubric))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "read_file"}, {"name": "write_file"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string]judge.Question{}
	j := scripted(func(q judge.Question) string {
		mu.Lock()
		got[q.Kind+"/"+q.Subject] = q
		mu.Unlock()
		if strings.HasPrefix(q.Subject, "read") {
			return `{"first": true}`
		}
		return `{"first": false}`
	})
	a := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "scripted", Model: "m"}, Rubric: r}
	rep, err := score.Run(context.Background(), r, s, score.Options{Asker: a})
	if err != nil {
		t.Fatal(err)
	}
	read, write := got["test.first/read_file"], got["test.first/write_file"]
	for _, q := range []judge.Question{read, write} {
		if string(q.Input) != `{"name":"`+q.Subject+`"}` {
			t.Errorf("%s: input %s, want only the tool's own", q.Subject, q.Input)
		}
		if string(q.Shared) != `{"names":["read_file","write_file"]}` || q.SharedHash == "" {
			t.Errorf("%s: shared %s (%q)", q.Subject, q.Shared, q.SharedHash)
		}
		if q.Context != "Tools: read_file, write_file\n" || q.Prompt() != q.Context+"Is "+q.Subject+" first?" {
			t.Errorf("%s: context %q, prompt %q", q.Subject, q.Context, q.Prompt())
		}
	}
	if read.SharedHash != write.SharedHash {
		t.Errorf("one shared value, two hashes: %s and %s", read.SharedHash, write.SharedHash)
	}
	quiet, loud := got["test.loud/read_file"], got["test.loud/write_file"]
	if string(quiet.Shared) != `["read_file","write_file"]` || string(loud.Shared) != `["read_file!","write_file!"]` ||
		quiet.SharedHash == loud.SharedHash || loud.Context != "Tools: read_file!, write_file!\n" {
		t.Errorf("by entry: quiet %s (%s), loud %s (%s, %q)", quiet.Shared, quiet.SharedHash, loud.Shared, loud.SharedHash, loud.Context)
	}
	// The same input under two shared values is kept apart.
	var hashes []string
	for _, tl := range rep.Tools {
		for _, o := range tl.Answers {
			if o.PromptBytes != len(got[o.Kind+"/"+o.Subject].System)+len(got[o.Kind+"/"+o.Subject].Prompt()) {
				t.Errorf("%s/%s: %d prompt bytes", o.Kind, o.Subject, o.PromptBytes)
			}
			hashes = append(hashes, o.InputHash)
		}
	}
	if len(hashes) != 4 || hashes[0] == surface.HashBytes([]byte(`{"name":"read_file"}`)) || hashes[0] == hashes[1] {
		t.Errorf("input hashes %v: want the input's and the shared value's together, each its own", hashes)
	}
	if rep.Exact == nil || *rep.Exact != "1" {
		t.Errorf("score %v, want 1", rep.Exact)
	}
}

// TestShareNamesAnEntry: a share naming no entry of the shared value is an
// error that names the question.
func TestShareNamesAnEntry(t *testing.T) {
	r, err := rubric.Load("shared.hcl", []byte(strings.Replace(sharedRubric, "? 'loud' : 'quiet'", "? 'LOUD' : 'quiet'", 1)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "write_file"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(judge.Question) string { return `{"first": true}` })
	a := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "scripted", Model: "m"}, Rubric: r}
	_, err = score.Run(context.Background(), r, s, score.Options{Asker: a})
	if err == nil || !strings.Contains(err.Error(), `"LOUD" names no entry`) || !strings.Contains(err.Error(), `question "loud"`) {
		t.Errorf("got %v", err)
	}
}

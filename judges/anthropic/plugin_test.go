package anthropic_test

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// TestAcrossThePluginBoundary serves the judge over go-plugin's gRPC, as
// the rubric binary does, and checks that the host gets its identity, its
// answers, an overload as a rate limit with its wait, and a reply without
// an answer as unreadable.
func TestAcrossThePluginBoundary(t *testing.T) {
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "message_tool_use.json"))
	host := judgetest.Host(t, anthropic.New())
	ctx := context.Background()

	t.Setenv("ANTHROPIC_API_KEY", testKey)
	id, err := host.Configure(ctx, judge.Config{Model: "claude-sonnet-4-5", Options: map[string]string{"base_url": srv.URL, "max_tokens": "512"}})
	if err != nil {
		t.Fatal(err)
	}
	// Parameters cross as JSON: the host sees numbers as float64.
	want := judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: srv.Listener.Addr().String(), Model: "claude-sonnet-4-5", Params: map[string]any{"max_tokens": 512.0}}
	if !reflect.DeepEqual(id, want) {
		t.Errorf("identity %+v, want %+v", id, want)
	}

	a, err := host.Ask(ctx, question())
	if err != nil || string(a.JSON) != `{"verdict":"terse","reasons":["no parameter is described"]}` || a.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("answer %+v (%s), %v", a, a.JSON, err)
	}

	srv.Answer(529, http.Header{"Retry-After": {"9"}}, judgetest.Fixture(t, "error_529.json"))
	_, err = host.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.Wait || judgetest.RetryAfter(err) != 9*time.Second {
		t.Errorf("a 529 reached the host as %v (%T)", err, err)
	}

	srv.Answer(200, nil, judgetest.Fixture(t, "message_text_only.json"))
	_, err = host.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.AskAgain {
		t.Errorf("a reply without tool_use reached the host as %v (%T)", err, err)
	}
}

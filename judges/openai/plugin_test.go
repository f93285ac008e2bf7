package openai_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
	"github.com/rubricmcp/rubric/judges/openai"
)

// TestAcrossThePluginBoundary serves the judge over go-plugin's gRPC, as
// the rubric binary does, and checks that the host gets its identity,
// its answers, and its rate limits and unreadable replies with their kind
// and wait intact.
func TestAcrossThePluginBoundary(t *testing.T) {
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "completion.json"))
	host := judgetest.Host(t, openai.New())
	ctx := context.Background()

	t.Setenv(keyEnv, testKey)
	id, err := host.Configure(ctx, judge.Config{Model: "gpt-4o", Options: map[string]string{
		"base_url": srv.URL + "/v1", "api_key_env": keyEnv, "seed": "7"}})
	if err != nil {
		t.Fatal(err)
	}
	// Parameters cross as JSON: the host sees numbers as float64.
	want := judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: srv.Listener.Addr().String(), Model: "gpt-4o", Params: map[string]any{"seed": 7.0}}
	if !reflect.DeepEqual(id, want) {
		t.Errorf("identity %+v, want %+v", id, want)
	}

	a, err := host.Ask(ctx, question())
	if err != nil || a.Model != "gpt-4o-2024-08-06" || a.Tokens != (judge.Tokens{Input: 412, Output: 19}) {
		t.Errorf("answer %+v, %v", a, err)
	}

	srv.Answer(429, http.Header{"Retry-After": {"3"}}, judgetest.Fixture(t, "error_429_rate.json"))
	_, err = host.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.Wait || judgetest.RetryAfter(err) != 3*time.Second {
		t.Errorf("a 429 reached the host as %v (%T)", err, err)
	}

	srv.Answer(200, nil, judgetest.Fixture(t, "completion_refusal.json"))
	_, err = host.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.AskAgain {
		t.Errorf("a refusal reached the host as %v (%T)", err, err)
	}

	srv.Answer(401, nil, judgetest.Fixture(t, "error_401.json"))
	_, err = host.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.Stop || !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Errorf("a 401 reached the host as %v (%T)", err, err)
	}
}

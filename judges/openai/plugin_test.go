package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/openai"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// TestAcrossThePluginBoundary serves the judge over go-plugin's gRPC, as
// the rubric binary does, and checks that the host gets its identity,
// its answers, and its rate limits and unreadable replies with their kind
// and wait intact.
func TestAcrossThePluginBoundary(t *testing.T) {
	var mu sync.Mutex
	var status int
	var header http.Header
	var body []byte
	reply := func(s int, h http.Header, b []byte) {
		mu.Lock()
		defer mu.Unlock()
		status, header, body = s, h, b
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		for k, vs := range header {
			w.Header()[k] = vs
		}
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)

	client, server := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{
		protocol.KindJudge: &protocol.JudgePlugin{Impl: openai.New()},
	})
	t.Cleanup(func() { client.Close(); server.Stop() })
	raw, err := client.Dispense(protocol.KindJudge)
	if err != nil {
		t.Fatal(err)
	}
	host := raw.(*protocol.JudgeClient)
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

	reply(200, nil, fixture(t, "completion.json"))
	a, err := host.Ask(ctx, question())
	if err != nil || a.Model != "gpt-4o-2024-08-06" || a.Tokens != (judge.Tokens{Input: 412, Output: 19}) {
		t.Errorf("answer %+v, %v", a, err)
	}

	reply(429, http.Header{"Retry-After": {"3"}}, fixture(t, "error_429_rate.json"))
	_, err = host.Ask(ctx, question())
	if kindOf(err) != wait || retryAfter(err) != 3*time.Second {
		t.Errorf("a 429 reached the host as %v (%T)", err, err)
	}

	reply(200, nil, fixture(t, "completion_refusal.json"))
	_, err = host.Ask(ctx, question())
	if kindOf(err) != askAgain {
		t.Errorf("a refusal reached the host as %v (%T)", err, err)
	}

	reply(401, nil, fixture(t, "error_401.json"))
	_, err = host.Ask(ctx, question())
	if kindOf(err) != stop || !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Errorf("a 401 reached the host as %v (%T)", err, err)
	}
}

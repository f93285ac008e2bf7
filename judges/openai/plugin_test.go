package openai_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// TestAcrossThePluginBoundary serves the judge over go-plugin's gRPC, as
// the rubric binary does, and checks that the host gets its identity,
// its answers, and its rate limits and unreadable replies with their kind
// and wait intact.
func TestAcrossThePluginBoundary(t *testing.T) {
	suite.RunPlugin(t, map[string]string{"seed": "7"}, map[string]any{"seed": 7.0}, []judgetest.ErrorCase{
		{Name: "429", Status: 429, Header: http.Header{"Retry-After": {"3"}}, Body: judgetest.Fixture(t, "error_429_rate.json"),
			Kind: judgetest.Wait, Wait: 3 * time.Second},
		{Name: "refusal", Status: 200, Body: judgetest.Fixture(t, "completion_refusal.json"),
			Kind: judgetest.AskAgain},
		{Name: "401", Status: 401, Body: judgetest.Fixture(t, "error_401.json"),
			Kind: judgetest.Stop, Says: []string{"Incorrect API key provided"}},
	})
}

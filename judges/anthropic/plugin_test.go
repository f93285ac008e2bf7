package anthropic_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// TestAcrossThePluginBoundary serves the judge over go-plugin's gRPC, as
// the rubric binary does, and checks that the host gets its identity, its
// answers, an overload as a rate limit with its wait, and a reply without
// an answer as unreadable.
func TestAcrossThePluginBoundary(t *testing.T) {
	suite.RunPlugin(t, map[string]string{"max_tokens": "512"}, map[string]any{"max_tokens": 512.0}, []judgetest.ErrorCase{
		{Name: "529", Status: 529, Header: http.Header{"Retry-After": {"9"}}, Body: judgetest.Fixture(t, "error_529.json"),
			Kind: judgetest.Wait, Wait: 9 * time.Second},
		{Name: "no tool_use", Status: 200, Body: judgetest.Fixture(t, "message_text_only.json"),
			Kind: judgetest.AskAgain},
	})
}

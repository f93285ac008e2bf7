package judgetest

import (
	"testing"

	"github.com/hashicorp/go-plugin"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Host serves impl over go-plugin's gRPC in process, as the rubric binary
// serves a built-in judge, and returns what the host side is dispensed.
func Host(t testing.TB, impl judge.Judge) *protocol.JudgeClient {
	t.Helper()
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{
		protocol.KindJudge: &protocol.JudgePlugin{Impl: impl},
	})
	// Closing the client shuts the server down through go-plugin's
	// controller; stopping the server as well would race with that.
	t.Cleanup(func() { client.Close() })
	raw, err := client.Dispense(protocol.KindJudge)
	if err != nil {
		t.Fatal(err)
	}
	jc, ok := raw.(*protocol.JudgeClient)
	if !ok {
		t.Fatalf("dispensed a %T, not a *protocol.JudgeClient", raw)
	}
	return jc
}

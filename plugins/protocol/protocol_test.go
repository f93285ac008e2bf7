package protocol

import (
	"reflect"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
)

func TestTargetCrossesIntact(t *testing.T) {
	for _, target := range []transport.Target{
		{},
		{Location: "npx", Args: []string{"-y", "pkg"}, Dir: "/srv", Env: map[string]string{"A": "1"}},
		{Location: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer x"},
			Limits: transport.Limits{StartTimeout: 1500 * time.Millisecond, RequestTimeout: time.Minute, MaxBytes: 1 << 20, MaxTools: 7}},
	} {
		if got := targetFromProto(targetToProto(target)); !reflect.DeepEqual(got, target) {
			t.Errorf("sent %+v, received %+v", target, got)
		}
	}
}

func TestIdentityCrossesIntact(t *testing.T) {
	for _, id := range []judge.Identity{
		{Plugin: "p", Version: "1"},
		{Plugin: "openai", Version: "2", Provider: "vllm", Model: "m", Params: map[string]any{"temperature": 0.0, "seed": 7.0}},
		{Plugin: "heuristic", Version: "1", Heuristic: true},
	} {
		p, err := identityToProto(id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := identityFromProto(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, id) {
			t.Errorf("sent %+v, received %+v", id, got)
		}
	}
	if _, err := identityToProto(judge.Identity{Params: map[string]any{"f": func() {}}}); err == nil {
		t.Error("parameters that are not JSON were sent")
	}
}

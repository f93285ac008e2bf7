package protocol

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
)

func TestTargetCrossesIntact(t *testing.T) {
	for _, target := range []transport.Target{
		{},
		{Location: "npx", Args: []string{"-y", "pkg"}, Dir: "/srv", Env: map[string]string{"A": "1"}, StrictStdout: true},
		{Location: "./server", Sandbox: transport.Sandbox{Kind: transport.SandboxBwrap, Net: true, Cwd: transport.CwdWritable, ReadOnly: []string{"/opt/a", "/home/u/.nvm"}}},
		{Location: "./server", Sandbox: transport.Sandbox{Kind: transport.SandboxBwrap}},
		{Location: "npx", Env: map[string]string{"A": "1"}, Unset: []string{"DEBUG", "NODE_OPTIONS"}},
		{Location: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer x"}, FollowRedirects: true,
			Limits: transport.Limits{StartTimeout: 1500 * time.Millisecond, RequestTimeout: time.Minute, MaxBytes: 1 << 20, MaxTools: 7}},
	} {
		if got := targetFromProto(targetToProto(target)); !reflect.DeepEqual(got, target) {
			t.Errorf("sent %+v, received %+v", target, got)
		}
	}
}

// TestLimitsCrossRoundedUp: a deadline that is not a whole number of
// milliseconds crosses rounded up, so that one under a millisecond is
// not taken for none (the default) on the other side.
func TestLimitsCrossRoundedUp(t *testing.T) {
	tests := []struct{ sent, received time.Duration }{
		{0, 0},
		{time.Nanosecond, time.Millisecond},
		{time.Millisecond, time.Millisecond},
		{1500 * time.Microsecond, 2 * time.Millisecond},
		{time.Minute, time.Minute},
	}
	for _, tt := range tests {
		target := transport.Target{Limits: transport.Limits{StartTimeout: tt.sent, RequestTimeout: tt.sent}}
		got := targetFromProto(targetToProto(target)).Limits
		if got.StartTimeout != tt.received || got.RequestTimeout != tt.received {
			t.Errorf("sent %s, received start %s and request %s, want %s", tt.sent, got.StartTimeout, got.RequestTimeout, tt.received)
		}
	}
}

func TestIdentityCrossesIntact(t *testing.T) {
	for _, id := range []judge.Identity{
		{Plugin: "p", Version: "1"},
		{Plugin: "openai", Version: "2", Provider: "vllm", Model: "m", Params: map[string]any{"temperature": 0.0, "seed": 7.0}},
		{Plugin: "heuristic", Version: "1", Heuristic: true},
		{Plugin: "claude-cli", Version: "1", Model: "m", CLI: "claude", CLIVersion: "2.1.288"},
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

// TestAskErrorsCrossIntact checks that the errors the engine acts on keep
// their kind, and a rate limit its wait, across the gRPC boundary.
func TestAskErrorsCrossIntact(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		sent  error
		check func(error) bool
	}{
		{&judge.RateLimitError{RetryAfter: 1500 * time.Millisecond, Msg: "slow down"}, func(err error) bool {
			var rl *judge.RateLimitError
			return errors.As(err, &rl) && rl.RetryAfter == 1500*time.Millisecond && rl.Msg == "slow down"
		}},
		{&judge.RateLimitError{Msg: "busy"}, func(err error) bool {
			var rl *judge.RateLimitError
			return errors.As(err, &rl) && rl.RetryAfter == 0
		}},
		{&judge.UnreadableError{Msg: "no text"}, func(err error) bool {
			var ur *judge.UnreadableError
			return errors.As(err, &ur) && ur.Msg == "no text"
		}},
		{errors.New("bad key"), func(err error) bool {
			var rl *judge.RateLimitError
			var ur *judge.UnreadableError
			return !errors.As(err, &rl) && !errors.As(err, &ur) && err.Error() == "bad key"
		}},
	}
	for _, c := range cases {
		got := askError(ctx, askStatus(c.sent))
		if !c.check(got) {
			t.Errorf("sent %v (%T), received %v (%T)", c.sent, c.sent, got, got)
		}
	}
}

// failing is a transport whose every export fails with err.
type failing struct{ err error }

func (f failing) Name() string { return "failing" }
func (f failing) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "failing"}, nil
}
func (f failing) Export(context.Context, transport.Target) (*surface.Surface, error) {
	return nil, f.err
}

// TestExportErrorsCrossIntact: a transport's permanent failure (one that
// trying again cannot fix) is permanent on the host's side too, with its
// message; any other failure is not.
func TestExportErrorsCrossIntact(t *testing.T) {
	for _, c := range []struct {
		sent      error
		permanent bool
	}{
		{transport.Permanent(errors.New("cannot read surface: open tools.json: no such file or directory")), true},
		{fmt.Errorf("cannot start %q: %w", "srv", transport.Permanent(errors.New(`exec: "srv": executable file not found in $PATH`))), true},
		{errors.New("server exited with status 1 before answering initialize"), false},
	} {
		_, _, err := serveTransport(t, failing{c.sent}).ExportDocument(context.Background(), transport.Target{Location: "x"}, 1<<20)
		if err == nil || err.Error() != c.sent.Error() || transport.IsPermanent(err) != c.permanent {
			t.Errorf("sent %q (permanent %v), received %v (permanent %v)", c.sent, c.permanent, err, transport.IsPermanent(err))
		}
	}
}

package protocol

import (
	"context"
	"errors"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
)

// refusing is a judge whose configuration fails with err.
type refusing struct {
	echo
	err error
}

func (r refusing) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return judge.Identity{}, r.err
}

// TestSettingErrorCrosses: a judge's missing setting reaches the host as
// the judge.SettingError it was, fields and message intact, so that a
// front-end can word it; any other refusal stays a plain message.
func TestSettingErrorCrosses(t *testing.T) {
	want := &judge.SettingError{Judge: "openai", Setting: "model", What: "a model", Value: "NAME", Advice: "pass --model NAME"}
	_, err := serveImpl(t, refusing{err: want}).Configure(context.Background(), judge.Config{})
	var got *judge.SettingError
	if !errors.As(err, &got) || *got != *want || err.Error() != want.Error() {
		t.Errorf("got %#v (%v), want %#v", got, err, want)
	}
	_, err = serveImpl(t, refusing{err: errors.New("the openai judge's base_url is not a URL")}).Configure(context.Background(), judge.Config{})
	if errors.As(err, &got) || err == nil || err.Error() != "the openai judge's base_url is not a URL" {
		t.Errorf("a plain refusal came back as %#v", err)
	}
}

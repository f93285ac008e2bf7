package heuristic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/rubricmcp/rubric/engine/judge"
)

// Names under which the judge answers.
const (
	// Plugin is the judge's plugin name.
	Plugin = "heuristic"
	// Version is the judge's version. It changes whenever a cue or a
	// threshold changes, because answers change with them and scores
	// from different identities are never compared.
	Version = "1.0.0"
	// Model is the one model the judge has: its rule set.
	Model = "heuristic-1"
)

// Question kinds the judge answers.
const (
	// KindTool asks for the six TDQS dimensions of one tool.
	KindTool = "tdqs.tool"
	// KindCoherence asks for the four coherence dimensions of a server.
	KindCoherence = "tdqs.coherence"
)

// Judge is the offline heuristic judge. It holds no state: one Judge may
// answer from many goroutines at once.
type Judge struct{}

// New returns the heuristic judge.
func New() *Judge { return &Judge{} }

func identity() judge.Identity {
	return judge.Identity{Plugin: Plugin, Version: Version, Provider: "rubric", Model: Model, Heuristic: true}
}

// Describe returns the judge's identity.
func (*Judge) Describe(context.Context) (judge.Identity, error) { return identity(), nil }

// Configure accepts no model or the judge's own, heuristic-1, and refuses
// any other. Options are ignored: the rules have no settings.
func (*Judge) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	if c.Model != "" && c.Model != Model {
		return judge.Identity{}, fmt.Errorf("the heuristic judge has only one model, %q; it cannot answer as %q (leave the model empty or pass %q)", Model, c.Model, Model)
	}
	return identity(), nil
}

// Ask answers a tdqs.tool or tdqs.coherence question from its structured
// input alone; the prompt text is never read. The same question always
// gets the same bytes.
func (*Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if err := ctx.Err(); err != nil {
		return judge.Answer{}, err
	}
	var answer any
	switch q.Kind {
	case KindTool:
		f, err := readFacts(q.Input)
		if err != nil {
			return judge.Answer{}, err
		}
		answer = scoreTool(f)
	case KindCoherence:
		in, err := readCoherence(q.Input)
		if err != nil {
			return judge.Answer{}, err
		}
		answer = scoreCoherence(in)
	default:
		return judge.Answer{}, fmt.Errorf("the heuristic judge cannot answer questions of kind %q (it answers %s, %s)", q.Kind, KindTool, KindCoherence)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(answer); err != nil {
		return judge.Answer{}, err
	}
	return judge.Answer{JSON: bytes.TrimRight(buf.Bytes(), "\n"), Model: Model}, nil
}

// Package judge defines what the engine asks of a judge: a model (or a
// deterministic stand-in) that answers a rubric's questions.
//
// Judges are out-of-process plugins; the engine depends only on this
// interface. Every answer is recorded as an observation with its provenance
// (the judge's identity, the question's digest and the input's hash), so
// scores stay a pure function of the rubric and the observations.
package judge

import "context"

// Identity says who answers: it is recorded in every report, enters every
// cache key, and scores from different identities are never compared.
type Identity struct {
	Plugin   string         `json:"plugin"`
	Version  string         `json:"version"`
	Provider string         `json:"provider,omitempty"`
	Model    string         `json:"model,omitempty"`
	Params   map[string]any `json:"params,omitempty"`
	// Heuristic is true for judges that answer by rules, not by a model.
	Heuristic bool `json:"heuristic,omitempty"`
}

// Question is one thing a rubric asks about a tool or a surface.
type Question struct {
	Rubric       string `json:"rubric"`
	RubricDigest string `json:"rubric_digest"`
	// Kind lets an offline judge recognise the question without reading
	// the prompt.
	Kind   string `json:"kind"`
	System string `json:"system"`
	User   string `json:"user"`
	// AnswerSchema is the JSON Schema the answer must satisfy.
	AnswerSchema []byte `json:"answer_schema"`
	// Input is the structured input the prompt was rendered from.
	Input []byte `json:"input"`
}

// Answer is a judge's reply.
type Answer struct {
	// JSON is the answer text, to be validated against the answer schema.
	JSON []byte `json:"json"`
	// Model is the model that actually answered.
	Model  string `json:"model"`
	Tokens Tokens `json:"tokens"`
}

// Tokens counts a call's usage.
type Tokens struct {
	Input  int `json:"input"`
	Output int `json:"output"`
}

// Config is what a run asks of a judge: the model to answer with and
// judge-specific options (a base URL, a temperature, ...). Secrets never
// travel in a Config: a judge reads them from its environment.
type Config struct {
	Model   string            `json:"model,omitempty"`
	Options map[string]string `json:"options,omitempty"`
}

// Judge answers questions.
type Judge interface {
	Identity(ctx context.Context) (Identity, error)
	Ask(ctx context.Context, q Question) (Answer, error)
}

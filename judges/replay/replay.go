// Package replay is the judge that answers from a file of recorded answers
// instead of asking a model: the answers a run wrote with --record, or
// answers written by hand for a test or a calibration case. A replayed run
// is as deterministic as the file, costs nothing and needs no network.
//
// The file holds one JSON object per line, a judge.Recorded. This one is
// testdata/weather.jsonl, the example the README shows:
//
//	# TDQS answers for a two-tool weather server, written by hand.
//	# One question per tool (kind tdqs.tool, subject the tool's name), and one
//	# about the whole set (kind tdqs.coherence, subject "surface").
//
//	{"kind": "tdqs.tool", "subject": "get_forecast", "model": "claude-opus-5-5", "answer": {"purpose_clarity": {"score": 4, "justification": "Says it returns a daily forecast for a place."}, "usage_guidelines": {"score": 3, "justification": "No word on when to prefer get_alerts."}}}
//	{"kind": "tdqs.tool", "subject": "get_alerts", "model": "claude-opus-5-5", "answer": {"purpose_clarity": {"score": 2, "justification": "\"Alerts\" is not said to mean severe-weather warnings."}, "usage_guidelines": {"score": 1, "justification": "Nothing."}}}
//
//	# The coherence of the whole set.
//	{"kind": "tdqs.coherence", "subject": "surface", "model": "claude-opus-5-5", "answer": {"coherence": {"score": 3, "justification": "Consistent names; overlapping scopes."}}}
//
// kind is the question's kind, subject the tool's name ("surface" for a
// question about the whole surface), answer the answer itself as a JSON
// value (not a string holding JSON), in the shape the question's
// answer_schema asks for, and model, optional, the model that gave it
// (a file whose lines name different models replays too: see
// commonModel).
// tokens, optional, is what the answer cost ({"input": N, "output": N}),
// replayed as the judge's usage. Blank lines and lines starting with #
// are skipped.
//
// The example shows a file's shape: its answers are not of the shape the
// built-in tdqs rubric's answer_schema asks for, and a replayed
// answer is checked against that schema when it is asked, as a model's
// is, so tdqs refuses them, naming the line. A file recorded with
// --record holds answers of the right shape.
//
// The whole file is read and checked when the judge is configured: a line
// that cannot be read, or a second answer to the same kind and subject, is
// an error naming the file and line, so a broken file fails before anything
// is scored. The judge's identity carries the file's SHA-256, so answers
// replayed from a changed file are never mistaken for the old ones.
package replay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/termtext"
	"github.com/rubricmcp/rubric/internal/words"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
)

// The replay judge's identity before a file is given.
const (
	Name     = "replay"
	Version  = "1.0.0"
	Provider = "replay"
	// DefaultModel is the model a replay answers as when neither the
	// configuration nor the file names one.
	DefaultModel = "replay"
)

// OptionAnswers is the option that names the answers file.
const OptionAnswers = "answers"

// OptionAnswersName is the option that gives the name messages call the
// answers file by, when the file read is a copy whose path means nothing
// to the user (rubric gate reads the base's file from a temporary copy,
// and names it REV:path). The file's path when not given.
const OptionAnswersName = "answers_name"

// OptionMaxFileSize names the option that raises the size limit of the
// answers file, in bytes (rubric's --max-file-size, boundedread.Limit(), when not given).
const OptionMaxFileSize = "max_file_size"

// Judge answers from a recorded answers file. The zero value is not
// usable; New returns one to Configure.
type Judge struct {
	mu      sync.RWMutex
	id      judge.Identity
	path    string           // as messages name it (OptionAnswersName)
	answers map[key]recorded // nil until configured
	// mixed is whether the lines name models that are not one model's
	// (or some name one and some none): the identity then pins no model,
	// and each answer reports the model its line names, or none.
	mixed bool
	// schemas are the questions' answer schemas compiled, by their text.
	schemas sync.Map
}

var _ judge.Judge = (*Judge)(nil)

// key finds an answer.
type key struct{ kind, subject string }

// recorded is one answer as read, with the line it came from.
type recorded struct {
	answer json.RawMessage
	model  string
	tokens judge.Tokens
	line   int
}

// afresh is the advice to record a new answers file: any judge can, the
// offline default among them, which a user who wants a file for a test
// needs to know ("from a judge that asks a model" said otherwise).
const afresh = "or write the file afresh with --record FILE and the judge whose answers it should hold (the default, heuristic, answers the built-in rubrics without a model)"

// New returns an unconfigured replay judge.
func New() *Judge { return &Judge{} }

// Describe implements judge.Judge.
func (*Judge) Describe(context.Context) (judge.Identity, error) {
	return judge.Identity{Plugin: Name, Version: Version, Provider: Provider}, nil
}

// CheckOptions implements judge.OptionChecker.
func (*Judge) CheckOptions(options map[string]string) error {
	_, err := judgeopt.NewOptions(Name, options, OptionAnswers, OptionAnswersName, OptionMaxFileSize)
	return err
}

// Configure implements judge.Judge. It reads and checks the whole
// answers file named by the answers option. The model is c.Model when
// given (a file with answers from another model is refused), else what
// commonModel makes of the models the lines name.
func (j *Judge) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	if err := j.CheckOptions(c.Options); err != nil {
		return judge.Identity{}, err
	}
	path := c.Options[OptionAnswers]
	if path == "" {
		return judge.Identity{}, &judge.SettingError{Judge: Name, Setting: OptionAnswers, What: "an answers file", Value: "FILE", Advice: "pass --answers FILE"}
	}
	max := boundedread.Limit()
	if s := c.Options[OptionMaxFileSize]; s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return judge.Identity{}, fmt.Errorf("the replay judge's option %s must be a number of bytes above 0, not %q: give it with %s", OptionMaxFileSize, s, judgeopt.Setting(Name, OptionMaxFileSize, "BYTES"))
		}
		max = n
	}
	name := path
	if n := c.Options[OptionAnswersName]; n != "" {
		name = n
	}
	data, err := boundedread.ReadFile(ctx, path, max)
	if err != nil {
		return judge.Identity{}, boundedread.Named(err, "answers file", name, "give a file of recorded answers, as --record FILE writes one")
	}
	answers, err := parse(name, data)
	if err != nil {
		return judge.Identity{}, err
	}
	model, mixed := c.Model, false
	if model == "" {
		model, mixed = commonModel(answers)
	} else if err := pinned(name, model, answers); err != nil {
		return judge.Identity{}, err
	}
	sum := sha256.Sum256(data)
	id := judge.Identity{
		Plugin:   Name,
		Version:  Version,
		Provider: Provider,
		Model:    model,
		Params:   map[string]any{"answers_sha256": hex.EncodeToString(sum[:])},
	}
	if mixed {
		id.Params[judge.ParamModels] = modelsOf(answers)
	}
	j.mu.Lock()
	j.id, j.path, j.answers, j.mixed = id, name, answers, mixed
	j.mu.Unlock()
	return id, nil
}

// Ask implements judge.Judge: the answer recorded for the question's
// kind and subject, as recorded.
func (j *Judge) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	j.mu.RLock()
	defer j.mu.RUnlock()
	if j.answers == nil {
		return judge.Answer{}, errors.New("the replay judge was asked a question before it was configured")
	}
	r, ok := j.answers[key{q.Kind, q.Subject}]
	if !ok {
		return judge.Answer{}, fmt.Errorf("no recorded answer for kind %q, subject %q in %s, %s: add a line for it ({\"kind\": %q, \"subject\": %q, \"answer\": ...}), %s", q.Kind, q.Subject, j.path, answeredOf(j.answers, q.Kind), q.Kind, q.Subject, afresh)
	}
	if err := j.check(q.AnswerSchema, r.answer); err != nil {
		// Unreadable, as the engine's own check would find it (a tool
		// whose answer stays unreadable is left unscored): but named
		// at its line, with what to do, since asking again replays it.
		return judge.Answer{}, &judge.UnreadableError{Msg: fmt.Sprintf("%s:%d: the recorded answer for kind %q, subject %q %s; a replayed answer is the same at every attempt: write that line's answer as the rubric's answer_schema says (rubric rubrics show RUBRIC --source prints it), %s",
			j.path, r.line, q.Kind, termtext.Printable(q.Subject), err, afresh)}
	}
	model := r.model
	if model == "" && !j.mixed {
		model = j.id.Model
	}
	return judge.Answer{JSON: bytes.Clone(r.answer), Model: model, Tokens: r.tokens}, nil
}

// check says how answer breaks schema, the question's JSON Schema
// (nothing to check when it is empty), read and compiled as the engine
// reads a rubric's answer_schema, so that it finds what the engine's
// check of the answer would, no more. Compiled schemas are kept by text.
func (j *Judge) check(schema, answer []byte) error {
	if len(schema) == 0 {
		return nil
	}
	var compiled *jsonschema.Schema
	if c, ok := j.schemas.Load(string(schema)); ok {
		compiled = c.(*jsonschema.Schema)
	} else {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
		if err != nil {
			return nil // the engine refuses the schema itself
		}
		c := jsonschema.NewCompiler()
		const loc = "rubric:answer_schema.json"
		if err := c.AddResource(loc, doc); err != nil {
			return nil
		}
		if compiled, err = c.Compile(loc); err != nil {
			return nil
		}
		j.schemas.Store(string(schema), compiled)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(answer))
	if err != nil {
		return fmt.Errorf("is not JSON: %v", err)
	}
	if err := compiled.Validate(v); err != nil {
		return fmt.Errorf("does not satisfy the question's schema: %s", strings.Join(strings.Fields(err.Error()), " "))
	}
	return nil
}

// answeredOf says which subjects answers holds of kind, the first few
// by name, so that a file written for another server shows as such.
func answeredOf(answers map[key]recorded, kind string) string {
	var subjects []string
	for k := range answers {
		if k.kind == kind {
			// A recorded subject is a server's name: written printable,
			// its terminal controls dropped.
			subjects = append(subjects, termtext.Printable(k.subject))
		}
	}
	if len(subjects) == 0 {
		return "which answers no question of that kind"
	}
	slices.Sort(subjects)
	return "which answers that kind for " + words.List(subjects, 5)
}

// parse reads every line of an answers file.
func parse(path string, data []byte) (map[key]recorded, error) {
	answers := make(map[key]recorded)
	for i, text := range strings.Split(string(data), "\n") {
		line := i + 1
		if trimmed := strings.TrimSpace(text); trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		rec, err := parseLine([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		k := key{rec.Kind, rec.Subject}
		if first, dup := answers[k]; dup {
			return nil, fmt.Errorf("%s:%d: a second answer for kind %q, subject %q (the first is on line %d)", path, line, k.kind, k.subject, first.line)
		}
		r := recorded{answer: rec.Answer, model: rec.Model, line: line}
		if rec.Tokens != nil {
			r.tokens = *rec.Tokens
		}
		answers[k] = r
	}
	return answers, nil
}

// parseLine reads one line and says what is wrong with it.
func parseLine(text []byte) (judge.Recorded, error) {
	var rec judge.Recorded
	var raw json.RawMessage
	if err := json.Unmarshal(text, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return rec, fmt.Errorf("not JSON: %v at column %d", se, se.Offset)
		}
		return rec, fmt.Errorf("not JSON: %v", err)
	}
	if raw[0] != '{' {
		return rec, errors.New("not a JSON object: each line is one object with kind, subject and answer")
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return rec, fmt.Errorf("%q must be a string, not a JSON %s", te.Field, te.Value)
		}
		return rec, err
	}
	switch {
	case rec.Kind == "":
		return rec, errors.New(`missing "kind": name the question's kind, such as "tdqs.tool"`)
	case rec.Subject == "":
		return rec, errors.New(`missing "subject": name the tool, or "surface" for a question about the whole surface`)
	case len(rec.Answer) == 0:
		return rec, errors.New(`missing "answer"`)
	case string(rec.Answer) == "null":
		return rec, errors.New(`"answer" is null: record the answer itself, a JSON value`)
	case holdsJSON(rec.Answer):
		return rec, errors.New(`"answer" is a string holding JSON: write the JSON value itself, without the quotes`)
	}
	return rec, nil
}

// holdsJSON reports whether raw is a JSON string whose text is itself a
// JSON object or array: an answer quoted by mistake.
func holdsJSON(raw json.RawMessage) bool {
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return false
	}
	s = strings.TrimSpace(s)
	return s != "" && (s[0] == '{' || s[0] == '[') && json.Valid([]byte(s))
}

// commonModel is the model a file's answers replay as, when the run
// pins none: DefaultModel when no line names a model; the model every
// line names, or the one model they name snapshots of (gpt-4o for
// gpt-4o-2024-08-06 and gpt-4o-2024-11-20, as judge.SameModel reads a
// snapshot), so that each answer replays as it was recorded and the pin
// accepts it; else, when the lines name different models, or some name
// one and some none (a file recorded from a judge that pins none, whose
// provider fell back to another model, or files joined), no model
// (mixed is true): the run then pins none, and each answer keeps the
// model its line names, or none, as recorded.
func commonModel(answers map[key]recorded) (model string, mixed bool) {
	counts := modelCounts(answers)
	if len(counts) == 0 {
		return DefaultModel, false
	}
	if base, ok := oneModel(counts); ok && counts[""] == 0 {
		return base, false
	}
	return "", true
}

// modelCounts counts the answers of each model the lines name, those
// naming none under "", when some line names one.
func modelCounts(answers map[key]recorded) map[string]int {
	counts := map[string]int{}
	for _, r := range answers {
		counts[r.model]++
	}
	if len(counts) == 1 && counts[""] > 0 {
		return map[string]int{}
	}
	return counts
}

// oneModel is the model of which every model in counts is the same
// model or a dated snapshot (judge.SameModel), the shortest such.
func oneModel(counts map[string]int) (string, bool) {
	var candidates []string
	for m := range counts {
		if m != "" {
			candidates = append(candidates, m, judge.WithoutSnapshot(m))
		}
	}
	slices.SortFunc(candidates, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	for _, c := range candidates {
		if c == "" {
			continue
		}
		all := true
		for m := range counts {
			all = all && (m == "" || judge.SameModel(c, m))
		}
		if all {
			return c, true
		}
	}
	return "", false
}

// modelsOf names the models the lines name, with how many answers each
// gave, those naming none last: "a (2 answers), b (1 answer), none (1
// answer)".
func modelsOf(answers map[key]recorded) string {
	counts := modelCounts(answers)
	parts := make([]string, 0, len(counts))
	for _, m := range slices.Sorted(maps.Keys(counts)) {
		if m != "" {
			parts = append(parts, fmt.Sprintf("%s (%s)", m, words.Count(counts[m], "answer")))
		}
	}
	if n := counts[""]; n > 0 {
		parts = append(parts, fmt.Sprintf("none (%s)", words.Count(n, "answer")))
	}
	return strings.Join(parts, ", ")
}

// pinned refuses a file some of whose answers name another model than
// model, the one the run pins, before anything is asked: the engine
// would refuse each such answer when it came, and a user is better told
// once which models the file holds, how many answers each, and what to
// do.
func pinned(path, model string, answers map[key]recorded) error {
	others := map[string][]int{}
	named := 0
	for _, r := range answers {
		if r.model == "" {
			continue
		}
		named++
		if !judge.SameModel(model, r.model) {
			others[r.model] = append(others[r.model], r.line)
		}
	}
	if len(others) == 0 {
		return nil
	}
	n := 0
	var parts []string
	for _, m := range slices.Sorted(maps.Keys(others)) {
		lines := others[m]
		slices.Sort(lines)
		n += len(lines)
		at := make([]string, len(lines))
		for i, l := range lines {
			at[i] = strconv.Itoa(l)
		}
		parts = append(parts, fmt.Sprintf("%q (%s, %s %s)", m, words.Count(len(lines), "answer"), words.Pick(len(lines), "line", "lines"), words.List(at, 5)))
	}
	then := "each answer then reports the model its line names, and the run pins none"
	if as, mixed := commonModel(answers); !mixed {
		then = fmt.Sprintf("the judge then answers as %q", as)
	}
	return fmt.Errorf("%s: the run pins model %q (--model, or a config file's model), but %s another model: %s; a replayed answer keeps the model it was recorded from: leave --model out to replay each answer as recorded (%s), or give the file answers from model %q",
		path, model, otherAnswers(n, named, len(answers)), strings.Join(parts, ", "), then, model)
}

// otherAnswers says how many of a file's answers name another model
// than the pinned one: n of the named answers that name a model at
// all, of all the file's answers; "all" where every one does, and "its
// only" where there is one, rather than "1 of its 1 answers".
func otherAnswers(n, named, all int) string {
	naming := ""
	if named < all {
		naming = " naming a model"
	}
	switch {
	case n == named && n == 1:
		return "its only answer" + naming + " names"
	case n == named:
		return fmt.Sprintf("all %d of its answers%s name", n, naming)
	}
	return fmt.Sprintf("%d of its %d answers%s %s", n, named, naming, words.Pick(n, "names", "name"))
}

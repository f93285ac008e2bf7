package score

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// surfaceValue is the whole surface as formulas see it: its tools'
// definitions and the server's information.
type surfaceValue struct {
	val  map[string]any
	size uint64 // bounds the length of anything in val
	// grades are the rubric's grades, letter to minimum.
	grades map[string]any
	// observe is Options.Observe.
	observe func(string, *lang.Program, lang.Vars)
}

func newSurfaceValue(r *rubric.Rubric, s *surface.Surface) *surfaceValue {
	defs := make([]any, len(s.Tools))
	size := uint64(len(defs))
	for i, t := range s.Tools {
		defs[i] = t.Def
		size = max(size, sizeOf(t))
	}
	server := map[string]any{}
	for k, v := range s.Server {
		server[k] = v
	}
	size = max(size, valueSize(server))
	grades := map[string]any{}
	for _, g := range r.Grades {
		grades[g.Letter] = g.Min
	}
	return &surfaceValue{
		grades: grades,
		val:    map[string]any{"tools": defs, "server": server},
		size:   size,
	}
}

// target is where an answer goes: a tool (by index), the surface, or an
// item of a question per item.
type target struct {
	q    *rubric.Question
	tool int // -1 for the surface and items
	item int // -1 unless the question is per item
}

// askAll asks the rubric's questions stage by stage and hands each answer
// to its tool, or to the surface. It returns the surface's answers by
// question (a list, one per item, for questions per item), and what each
// answer cost (see usageOf): by question, then by tool name for questions
// per tool, a list for questions per item, or one entry.
func askAll(ctx context.Context, r *rubric.Rubric, asker Asker, sv *surfaceValue, rep *report.Report, states []*toolState) (answers, usage map[string]any, err error) {
	surfaceAnswers := map[string]any{}
	usage = map[string]any{}
	if len(r.Questions) == 0 {
		return surfaceAnswers, usage, nil
	}
	for _, q := range r.Questions {
		switch q.Per {
		case rubric.PerTool:
			usage[q.Name] = map[string]any{}
		default:
			surfaceAnswers[q.Name] = nil
			usage[q.Name] = nil
		}
	}
	for _, st := range states {
		st.answers = map[string]any{}
		for _, q := range r.Questions {
			if q.Per == rubric.PerTool {
				st.answers[q.Name] = nil
			}
		}
	}
	// Each tool's answers by name, for surface and item questions that
	// read them (and so wait for them: see rubric.Stages).
	toolAnswers := make(map[string]any, len(states))
	for _, st := range states {
		toolAnswers[st.name] = st.answers
	}
	// Formulas of questions about the surface and its items see every
	// tool, so their budget grows with the number of tools, as the
	// surface's own formulas' does.
	limit := overSurface(len(states))
	// What the formulas of questions about the surface and its items see.
	surfaceVars := func() lang.Vars {
		return lang.Vars{"surface": sv.val, "answers": surfaceAnswers, "tool_answers": toolAnswers}
	}
	for _, stage := range r.Stages() {
		var reqs []ask.Request
		var where []target
		// addAll builds a question's n requests on every core (each carries
		// its own input, often the whole surface), then adds them in order;
		// at(i) is the scope, subject and target of the i-th.
		addAll := func(q *rubric.Question, n int, at func(i int) (*scope, string, target, error)) error {
			built := make([]ask.Request, n)
			ok := make([]bool, n)
			ts := make([]target, n)
			if err := forEach(ctx, n, 0, func(i int) error {
				sc, subject, t, err := at(i)
				if err != nil {
					return err
				}
				if built[i], ok[i], err = request(q, sc, subject); err != nil {
					who := ""
					if t.tool >= 0 {
						who = states[t.tool].name
					}
					return &Error{Tool: who, Formula: fmt.Sprintf("question %q", q.Name), Err: err}
				}
				ts[i] = t
				return nil
			}); err != nil {
				return err
			}
			for i := range n {
				if ok[i] {
					reqs = append(reqs, built[i])
					where = append(where, ts[i])
				}
			}
			return nil
		}
		for _, q := range stage {
			var err error
			switch q.Per {
			case rubric.PerTool:
				err = addAll(q, len(states), func(i int) (*scope, string, target, error) {
					return states[i].sc, states[i].name, target{q, i, -1}, nil
				})
			case rubric.PerSurface:
				err = addAll(q, 1, func(int) (*scope, string, target, error) {
					return &scope{vars: surfaceVars(), size: unbounded, limit: limit}, judge.SurfaceSubject, target{q, -1, -1}, nil
				})
			case rubric.PerItem:
				var items []ref.Val
				if items, err = evalList(q.Items, &scope{vars: surfaceVars(), size: unbounded, limit: limit}); err != nil {
					return nil, nil, &Error{Formula: fmt.Sprintf("question %q items", q.Name), Err: err}
				}
				surfaceAnswers[q.Name] = make([]any, len(items))
				usage[q.Name] = make([]any, len(items))
				err = addAll(q, len(items), func(k int) (*scope, string, target, error) {
					vars := surfaceVars()
					vars["item"], vars["index"] = items[k], types.Int(k)
					isc := &scope{vars: vars, size: unbounded, limit: limit}
					subject := fmt.Sprintf("item %d", k+1)
					if q.Subject != nil {
						var err error
						if subject, err = evalString(q.Subject, isc); err != nil {
							return nil, "", target{}, &Error{Formula: fmt.Sprintf("question %q subject", q.Name), Err: err}
						}
					}
					return isc, subject, target{q, -1, k}, nil
				})
			}
			if err != nil {
				return nil, nil, err
			}
		}
		if len(reqs) == 0 {
			continue
		}
		obs, err := asker.Ask(ctx, reqs)
		if err != nil {
			return nil, nil, err
		}
		for i, o := range obs {
			v, err := lang.FromJSON(o.Answer)
			if err != nil {
				return nil, nil, fmt.Errorf("the answer to %s about %q: %w", o.Kind, o.Subject, err)
			}
			t := where[i]
			switch {
			case t.tool >= 0:
				states[t.tool].answers[t.q.Name] = v
				usage[t.q.Name].(map[string]any)[states[t.tool].name] = usageOf(o)
				rep.Tools[t.tool].Answers = append(rep.Tools[t.tool].Answers, o)
			case t.item >= 0:
				surfaceAnswers[t.q.Name].([]any)[t.item] = v
				usage[t.q.Name].([]any)[t.item] = usageOf(o)
				rep.Answers = append(rep.Answers, o)
			default:
				surfaceAnswers[t.q.Name] = v
				usage[t.q.Name] = usageOf(o)
				rep.Answers = append(rep.Answers, o)
			}
		}
	}
	return surfaceAnswers, usage, nil
}

// request evaluates a question's when and input in sc; ok is false when
// the question is not to be asked.
func request(q *rubric.Question, sc *scope, subject string) (ask.Request, bool, error) {
	if q.When != nil {
		ok, err := evalBool(q.When, sc)
		if err != nil {
			return ask.Request{}, false, fmt.Errorf("when: %w", err)
		}
		if !ok {
			return ask.Request{}, false, nil
		}
	}
	v, err := sc.eval(q.Input)
	if err != nil {
		return ask.Request{}, false, fmt.Errorf("input: %w", err)
	}
	b, err := lang.CanonicalJSON(v)
	if err != nil {
		return ask.Request{}, false, fmt.Errorf("input: %w", err)
	}
	// Templates see the input as JSON reads back: numbers print as written.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var input any
	if err := dec.Decode(&input); err != nil {
		return ask.Request{}, false, fmt.Errorf("input: %w", err)
	}
	return ask.Request{Question: q, Subject: subject, Input: input, InputJSON: b, InputHash: surface.HashBytes(b)}, true, nil
}

// extraIssues evaluates a tool's issues formula: a list of maps, each
// with a check name and a message (and optionally params and points).
func extraIssues(p *lang.Program, sc *scope) ([]report.Issue, error) {
	v, err := sc.eval(p)
	if err != nil {
		return nil, err
	}
	n, err := lang.Native(v)
	if err != nil {
		return nil, err
	}
	list, ok := n.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of issues, got %T", n)
	}
	out := make([]report.Issue, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		check, _ := m["check"].(string)
		msg, _ := m["message"].(string)
		if !ok || check == "" || msg == "" {
			return nil, fmt.Errorf("issue %d: want a map with a check and a message", i)
		}
		is := report.Issue{Check: check, Message: msg, Params: []string{}, Points: "0"}
		if ps, ok := m["params"].([]any); ok {
			for _, p := range ps {
				is.Params = append(is.Params, fmt.Sprint(p))
			}
		}
		if pts, ok := m["points"]; ok {
			pv, err := lang.ToNum(lang.Adapter.NativeToValue(pts))
			if err != nil {
				return nil, fmt.Errorf("issue %d: points: %w", i, err)
			}
			is.Points = pv.Exact()
		}
		out = append(out, is)
	}
	return out, nil
}

// reportFields evaluates a report block's values as JSON-ready values:
// exact numbers as JSON numbers in their shortest exact decimal form.
func reportFields(rb *rubric.Report, sc *scope) (report.Fields, *Error) {
	out := make(report.Fields, 0, len(rb.Fields))
	for _, f := range rb.Fields {
		v, err := sc.eval(f.Value)
		if err != nil {
			return nil, &Error{Formula: fmt.Sprintf("report value %q", f.Name), Err: err}
		}
		b, err := lang.CanonicalJSON(v)
		if err != nil {
			return nil, &Error{Formula: fmt.Sprintf("report value %q", f.Name), Err: err}
		}
		out = append(out, report.Field{Name: f.Name, Value: json.RawMessage(b)})
	}
	return out, nil
}

// evalList evaluates a formula that must yield a list.
func evalList(p *lang.Program, sc *scope) ([]ref.Val, error) {
	v, err := sc.eval(p)
	if err != nil {
		return nil, err
	}
	l, ok := v.(traits.Lister)
	if !ok {
		return nil, fmt.Errorf("want a list, got %s", v.Type().TypeName())
	}
	out := make([]ref.Val, int(l.Size().(types.Int)))
	for i := range out {
		out[i] = l.Get(types.Int(i))
	}
	return out, nil
}

// usageOf is what one answer cost, as surface formulas see it: tokens, the
// input and output tokens the judge reported, or, when it reported none
// (the heuristic, a replayed file, a provider without usage), an estimate
// of the UTF-8 bytes of the prompts and the answer divided by 4, rounded
// half up; estimated says which.
func usageOf(o report.Observation) map[string]any {
	if n := o.Tokens.Input + o.Tokens.Output; n > 0 {
		return map[string]any{"tokens": int64(n), "estimated": false}
	}
	return map[string]any{"tokens": int64((o.PromptBytes + len(o.Answer) + 2) / 4), "estimated": true}
}

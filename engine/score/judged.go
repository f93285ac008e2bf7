package score

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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
// definitions and the server's information, and the surface's signals.
type surfaceValue struct {
	val map[string]any
	// signals are the surface's signals by name, computed once a run.
	signals map[string]any
	size    uint64 // bounds the length of anything in val and signals
	// grades are the rubric's grades, letter to minimum.
	grades map[string]any
	// observe is Options.Observe.
	observe func(string, *lang.Program, lang.Vars)
}

func newSurfaceValue(r *rubric.Rubric, s *surface.Surface) (*surfaceValue, error) {
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
	sv := &surfaceValue{
		grades:  grades,
		val:     map[string]any{"tools": defs, "server": server},
		signals: map[string]any{},
		size:    size,
	}
	if len(r.Surface.Signals) > 0 {
		sc := &scope{vars: lang.Vars{"surface": sv.val}, size: size, limit: overSurface(len(defs))}
		signals, _, err := evalNamed(r.Surface.Signals, sc, "surface_signals", "surface signal")
		if err != nil {
			return nil, err
		}
		sv.signals, sv.size = signals, max(size, valueSize(signals))
	}
	return sv, nil
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
		return lang.Vars{"surface": sv.val, "surface_signals": sv.signals, "answers": surfaceAnswers, "tool_answers": toolAnswers}
	}
	// put hands an answer to its tool, or to the surface.
	put := func(t target, o ask.Observation) error {
		v, err := lang.FromJSON(o.Answer)
		if err != nil {
			return fmt.Errorf("the answer to %s about %q: %w", o.Kind, o.Subject, err)
		}
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
		return nil
	}
	for _, stage := range r.Stages() {
		for _, q := range stage {
			sh, err := shareOf(q, &scope{vars: surfaceVars(), size: unbounded, limit: limit})
			if err != nil {
				return nil, nil, err
			}
			switch q.Per {
			case rubric.PerTool:
				err = askEach(ctx, asker, q, sh, len(states), put, func(i int) (*scope, string, target, error) {
					return states[i].sc, states[i].name, target{q, i, -1}, nil
				}, states)
			case rubric.PerSurface:
				err = askEach(ctx, asker, q, sh, 1, put, func(int) (*scope, string, target, error) {
					return &scope{vars: surfaceVars(), size: unbounded, limit: limit}, judge.SurfaceSubject, target{q, -1, -1}, nil
				}, states)
			case rubric.PerItem:
				var items []ref.Val
				if items, err = evalList(q.Items, &scope{vars: surfaceVars(), size: unbounded, limit: limit}); err != nil {
					return nil, nil, &Error{Formula: fmt.Sprintf("question %q items", q.Name), Err: err}
				}
				surfaceAnswers[q.Name] = make([]any, len(items))
				usage[q.Name] = make([]any, len(items))
				err = askEach(ctx, asker, q, sh, len(items), put, func(k int) (*scope, string, target, error) {
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
				}, states)
			}
			if err != nil {
				return nil, nil, err
			}
		}
	}
	return surfaceAnswers, usage, nil
}

// Requests are built and asked a batch at a time, so that a run holds the
// inputs of one batch, not of every question at once (each input of a
// question about the surface carries every tool). A batch holds at most
// maxBatch requests, and about batchBytes of inputs once the first batch
// has shown how large they are; it is never smaller than minBatch, which
// keeps every judge worker and every core busy.
const (
	maxBatch   = 256
	minBatch   = 16
	batchBytes = 32 << 20
)

// askEach builds the n requests of question q (at(i) is the scope, subject
// and target of the i-th) a batch at a time on every core, asks each
// batch, and hands the answers to put in request order, so that what a
// report records does not depend on the batch sizes.
func askEach(ctx context.Context, asker Asker, q *rubric.Question, sh *shared, n int, put func(target, ask.Observation) error,
	at func(i int) (*scope, string, target, error), states []*toolState) error {
	size := minBatch
	for lo, hi := 0, 0; lo < n; lo = hi {
		hi = min(lo+size, n)
		built := make([]ask.Request, hi-lo)
		ok := make([]bool, hi-lo)
		ts := make([]target, hi-lo)
		if err := forEach(ctx, hi-lo, 0, func(k int) error {
			sc, subject, t, err := at(lo + k)
			if err != nil {
				return err
			}
			if built[k], ok[k], err = request(q, sc, subject, sh); err != nil {
				who := ""
				if t.tool >= 0 {
					who = states[t.tool].name
				}
				return &Error{Tool: who, Formula: fmt.Sprintf("question %q", q.Name), Err: err}
			}
			ts[k] = t
			return nil
		}); err != nil {
			return err
		}
		var reqs []ask.Request
		var where []target
		inputBytes := 0
		for k := range built {
			if ok[k] {
				reqs = append(reqs, built[k])
				where = append(where, ts[k])
				inputBytes += len(built[k].InputJSON)
			}
		}
		size = maxBatch
		if len(reqs) > 0 {
			size = min(max(batchBytes/max(inputBytes/len(reqs), 1), minBatch), maxBatch)
		}
		if len(reqs) == 0 {
			continue
		}
		obs, err := asker.Ask(ctx, reqs)
		if err != nil {
			return err
		}
		for k, o := range obs {
			if err := put(where[k], o); err != nil {
				return err
			}
		}
	}
	return nil
}

// shared is a question's shared value (rubric.Question.Shared), evaluated
// once a run: whole, for questions that use all of it, or by entry, for
// questions that name one with share.
type shared struct {
	all     *ask.Shared
	entries map[string]*ask.Shared
}

// shareOf evaluates q's shared value in sc, the scope of a question about
// the surface, once before q is asked; nil when q shares nothing.
func shareOf(q *rubric.Question, sc *scope) (*shared, error) {
	if q.Shared == nil {
		return nil, nil
	}
	fail := func(err error) error { return &Error{Formula: fmt.Sprintf("question %q shared", q.Name), Err: err} }
	v, err := sc.eval(q.Shared)
	if err != nil {
		return nil, fail(err)
	}
	sh := &shared{}
	if q.Share == nil {
		b, err := lang.CanonicalJSON(v)
		if err != nil {
			return nil, fail(err)
		}
		sh.all = ask.NewShared(b)
		return sh, nil
	}
	m, ok := v.(traits.Mapper)
	if !ok {
		return nil, fail(fmt.Errorf("want a map, got %s", v.Type().TypeName()))
	}
	sh.entries = map[string]*ask.Shared{}
	for it := m.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		name, ok := k.(types.String)
		if !ok {
			return nil, fail(fmt.Errorf("want names as keys, got %s", k.Type().TypeName()))
		}
		b, err := lang.CanonicalJSON(m.Get(k))
		if err != nil {
			return nil, fail(err)
		}
		sh.entries[string(name)] = ask.NewShared(b)
	}
	return sh, nil
}

// pick returns the shared value a request uses: all of it, or the entry
// q's share names in sc.
func (sh *shared) pick(q *rubric.Question, sc *scope) (*ask.Shared, error) {
	if sh == nil {
		return nil, nil
	}
	if q.Share == nil {
		return sh.all, nil
	}
	name, err := evalString(q.Share, sc)
	if err != nil {
		return nil, fmt.Errorf("share: %w", err)
	}
	e, ok := sh.entries[name]
	if !ok {
		return nil, fmt.Errorf("share: %q names no entry of the shared value", name)
	}
	return e, nil
}

// request evaluates a question's when and input in sc; ok is false when
// the question is not to be asked.
func request(q *rubric.Question, sc *scope, subject string, sh *shared) (ask.Request, bool, error) {
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
	share, err := sh.pick(q, sc)
	if err != nil {
		return ask.Request{}, false, err
	}
	// The asker decodes the input for the templates when it renders them.
	return ask.Request{Question: q, Subject: subject, InputJSON: b, InputHash: ask.InputHash(b, share), Shared: share}, true, nil
}

// extraIssues evaluates a tool's issues formula: a list of maps, each
// with a check name and a message (and optionally params, points, gain
// and severity).
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
		if err := formulaGain(m, &is); err != nil {
			return nil, fmt.Errorf("issue %d: %w", i, err)
		}
		if sev, ok := m["severity"]; ok && sev != nil {
			if is.Severity, _ = sev.(string); !report.ValidSeverity(is.Severity) {
				return nil, fmt.Errorf("issue %d: severity %v is none of %s", i, sev, strings.Join(report.Severities, ", "))
			}
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

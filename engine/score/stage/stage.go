// Package stage puts a rubric's questions to a judge while scoring: stage
// by stage, in the order their formulas' reads require, building each
// request (its when, input, subject and shared value) on every core a
// batch at a time, and handing each answer to its tool or to the surface.
package stage

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/engine/score/parallel"
)

// Asker answers questions: a judge behind the cache (package ask), or the
// answers a report recorded.
type Asker interface {
	Ask(ctx context.Context, reqs []ask.Request) ([]ask.Observation, error)
}

// target is where an answer goes: a tool (by index), the surface, or an
// item of a question per item.
type target struct {
	q    *rubric.Question
	tool int // -1 for the surface and items
	item int // -1 unless the question is per item
	// value is where the asker puts the answer's value when it has it
	// at hand (ask.Request.Value), so that it is not decoded again.
	value *any
}

// Ask asks the rubric's questions stage by stage and hands each answer
// to its tool, or to the surface. It returns the surface's answers by
// question (a list, one per item, for questions per item), and what each
// answer cost (see usageOf): by question, then by tool name for questions
// per tool, a list for questions per item, or one entry.
//
// The tools' states may still be being checked (checked follows the
// pass; nil when it is over): a tool's question waits for the tools up to
// it, and a question about the surface, its items or what every tool's
// answers read, for every tool. Each state is prepared (Prepare) before
// it is marked checked. A pass that fails ends the asking with its error.
//
// When the rubric asks one question per tool, answered (when not nil) is
// called with each tool's index once its answer is handed on, or it is
// known that it asks none about the tool, so that the tool can be
// finished while the others are asked about; it must not block.
func Ask(ctx context.Context, r *rubric.Rubric, asker Asker, sv *check.Surface, rep *report.Report, states []*check.State, checked *Checked, answered func(tool int)) (answers, usage map[string]any, err error) {
	surfaceAnswers := map[string]any{}
	usage = map[string]any{}
	if len(r.Questions) == 0 {
		return surfaceAnswers, usage, nil
	}
	perTool := 0
	for _, q := range r.Questions {
		switch q.Per {
		case rubric.PerTool:
			perTool++
			usage[q.Name] = map[string]any{}
		default:
			surfaceAnswers[q.Name] = nil
			usage[q.Name] = nil
		}
	}
	if perTool != 1 {
		answered = nil
	}
	// Each tool's answers by name, for surface and item questions that
	// read them (and so wait for them: see rubric.Stages), made once
	// every tool is checked.
	var (
		toolAnswers map[string]any
		toolsOnce   sync.Once
	)
	// besideTools is set while a stage is asked at once and its question
	// per tool finishes each tool as its answers come: a question about
	// the surface that reads the tools' answers (the others wait for no
	// tool) then waits for every tool within the checks' bound
	// (Checked.Bound), which those answers move on, rather than lifting
	// it, and the question per tool lifts it when it ends.
	besideTools := false
	allChecked := func(beside bool) error {
		wait := checked.upto
		if beside {
			wait = checked.uptoBeside
		}
		if err := wait(len(states)); err != nil {
			return err
		}
		toolsOnce.Do(func() {
			toolAnswers = make(map[string]any, len(states))
			for _, st := range states {
				toolAnswers[st.Name] = st.Answers
			}
		})
		return nil
	}
	// Formulas of questions about the surface and its items see every
	// tool, so their budget grows with the number of tools, as the
	// surface's own formulas' does.
	limit := eval.OverSurface(len(states), sv.Bytes)
	// What the formulas of questions about the surface and its items see;
	// withTools once every tool is checked, the tools' answers too.
	surfaceVars := func(withTools bool) lang.Vars {
		vars := lang.Vars{"surface": sv.Val, "surface_signals": sv.Signals, "answers": surfaceAnswers}
		if withTools {
			vars["tool_answers"] = toolAnswers
		}
		return vars
	}
	// put hands an answer to its tool, or to the surface.
	put := func(t target, o ask.Observation) error {
		var v any
		if t.value != nil {
			v = *t.value
		}
		if o.Unreadable == "" && v == nil {
			var err error
			if v, err = lang.FromJSON(o.Answer); err != nil {
				return fmt.Errorf("the answer to %s about %q: %w", o.Kind, o.Subject, err)
			}
		}
		switch {
		case t.tool >= 0 && o.Unreadable != "":
			// The rubric scores the tools it could: this one stays
			// unscored, its observation kept for a rescore to see.
			if states[t.tool].Unscored == "" {
				states[t.tool].Unscored = o.Unreadable
			}
			rep.Tools[t.tool].Answers = append(rep.Tools[t.tool].Answers, o)
		case t.tool >= 0:
			states[t.tool].Answers[t.q.Name] = v
			usage[t.q.Name].(map[string]any)[states[t.tool].Name] = usageOf(o)
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
	// askOne asks question q, handing each answer to hand.
	askOne := func(ctx context.Context, q *rubric.Question, hand func(target, ask.Observation) error) error {
		// A question waits for the tools it reads: a tool's, for its own
		// tool alone, and a question that reads the tools' answers, for
		// every tool.
		withTools := q.ReadsToolAnswers()
		if q.Per == rubric.PerTool {
			// However it ends, no answer moves the checks' bound on
			// after it.
			defer checked.Unbound()
		}
		if withTools {
			if err := allChecked(besideTools && q.Per != rubric.PerTool); err != nil {
				return err
			}
		}
		sh, err := shareOf(q, &eval.Scope{Vars: surfaceVars(withTools), Size: eval.Unbounded, Limit: limit, Ctx: ctx})
		if err != nil {
			return err
		}
		switch q.Per {
		case rubric.PerTool:
			return askEach(ctx, asker, q, sh, len(states), r.Partial(), hand, func(i int) (*eval.Scope, string, target, error) {
				if err := checked.upto(i + 1); err != nil {
					return nil, "", target{}, err
				}
				return states[i].Scope, states[i].Name, target{q: q, tool: i, item: -1}, nil
			}, states, answered)
		case rubric.PerSurface:
			return askEach(ctx, asker, q, sh, 1, false, hand, func(int) (*eval.Scope, string, target, error) {
				return &eval.Scope{Vars: surfaceVars(withTools), Size: eval.Unbounded, Limit: limit, Ctx: ctx}, judge.SurfaceSubject, target{q: q, tool: -1, item: -1}, nil
			}, states, nil)
		case rubric.PerItem:
			items, err := eval.List(q.Items, &eval.Scope{Vars: surfaceVars(withTools), Size: eval.Unbounded, Limit: limit, Ctx: ctx})
			if err != nil {
				return &eval.Error{Formula: fmt.Sprintf("question %q items", q.Name), Program: q.Items, Err: err}
			}
			surfaceAnswers[q.Name] = make([]any, len(items))
			usage[q.Name] = make([]any, len(items))
			return askEach(ctx, asker, q, sh, len(items), false, hand, func(k int) (*eval.Scope, string, target, error) {
				vars := surfaceVars(withTools)
				vars["item"], vars["index"] = items[k], types.Int(k)
				isc := &eval.Scope{Vars: vars, Size: eval.Unbounded, Limit: limit, Ctx: ctx}
				subject := fmt.Sprintf("item %d", k+1)
				if q.Subject != nil {
					var err error
					if subject, err = eval.String(q.Subject, isc); err != nil {
						return nil, "", target{}, &eval.Error{Formula: fmt.Sprintf("question %q subject", q.Name), Program: q.Subject, Err: err}
					}
				}
				return isc, subject, target{q: q, tool: -1, item: k}, nil
			}, states, nil)
		}
		return nil
	}
	for _, stage := range r.Stages() {
		if atOnce(asker, stage) {
			besideTools = answered != nil && slices.ContainsFunc(stage, func(q *rubric.Question) bool { return q.Per == rubric.PerTool })
			err := askAtOnce(ctx, stage, askOne, put, answered != nil)
			besideTools = false
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		for _, q := range stage {
			if err := askOne(ctx, q, put); err != nil {
				return nil, nil, err
			}
		}
	}
	return surfaceAnswers, usage, nil
}

// AtOnce is what an Asker implements when questions may be put to it
// from several goroutines at once, each call on its own: the questions of
// a stage are then asked at once (see atOnce). A batch asker, which
// submits each call as a provider batch, says false, so that it submits
// the same batches in the same order as before.
type AtOnce interface {
	AsksAtOnce() bool
}

// atOnce says whether the questions of stage are asked at once: when the
// asker can take them, and the stage holds one question per tool and
// questions about the surface, none per item. Questions of one stage read
// no answer of the stage (rubric.Stages), and a question per tool reads
// its tools' scopes alone; so while the judge answers the tools, the
// host builds a question about the surface (at 5,000 TDQS tools the
// coherence question, whose input holds every tool), and the judge
// answers it, instead of both waiting for the tools' last answer with a
// core idle. A question per item sets the stage's items aside as it
// starts, which the others' scopes see, so a stage with one is asked in
// order.
func atOnce(asker Asker, stage []*rubric.Question) bool {
	a, ok := asker.(AtOnce)
	if !ok || !a.AsksAtOnce() || len(stage) < 2 {
		return false
	}
	perTool := 0
	for _, q := range stage {
		switch q.Per {
		case rubric.PerTool:
			perTool++
		case rubric.PerSurface:
		default:
			return false
		}
	}
	return perTool <= 1
}

// answered is an answer held back until its stage's questions are all
// answered, with where it goes.
type answered struct {
	t target
	o ask.Observation
}

// askAtOnce asks the questions of stage at once, each with askOne, and
// then hands their answers to put question by question, each question's
// in the order askEach gave them: what put sees, and so what a report
// records, is what asking the questions one after the other gives. When
// questions fail, the error returned is the first failed question's in
// the stage's order, as asking them in turn returns; the others are let
// finish rather than stopped, so that which error is returned does not
// depend on which failed first (the answers they were paid for are
// cached as they arrive).
//
// With toolsNow, the answers to the question per tool are handed to put
// as they come, so that each tool can be finished while the others are
// asked about: each goes to a tool of its own, which the questions about
// the surface beside it never read, and the report records them as it
// did. What put then returns is returned where it was.
func askAtOnce(ctx context.Context, stage []*rubric.Question, askOne func(context.Context, *rubric.Question, func(target, ask.Observation) error) error, put func(target, ask.Observation) error, toolsNow bool) error {
	held := make([][]answered, len(stage))
	putErrs := make([]error, len(stage))
	errs := make([]error, len(stage))
	var wg sync.WaitGroup
	for k, q := range stage {
		hand := func(t target, o ask.Observation) error {
			held[k] = append(held[k], answered{t, o})
			return nil
		}
		if toolsNow && q.Per == rubric.PerTool {
			hand = func(t target, o ask.Observation) error {
				if putErrs[k] == nil {
					putErrs[k] = put(t, o)
				}
				return putErrs[k]
			}
		}
		wg.Go(func() { errs[k] = askOne(ctx, q, hand) })
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil && (putErrs[k] == nil || err != putErrs[k]) {
			return err
		}
	}
	for k, as := range held {
		if putErrs[k] != nil {
			return putErrs[k]
		}
		for _, a := range as {
			if err := put(a.t, a.o); err != nil {
				return err
			}
		}
	}
	return nil
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
// report records does not depend on the batch sizes; then, when done is
// not nil, it calls done with each index of the batch, asked or not. With
// tolerant, an answer may stay unreadable (ask.Request.MayStayUnreadable).
//
// The next batch of a question per tool is built while the judge answers
// the one before, so that the host's cores and the judge are busy at
// once; the batches are still asked one after the other, each once the
// one before is answered (a batch asker submits them in the same order),
// and each batch's answers are handed on once the next one is built, so
// that building never meets put. A tool's request reads its own scope
// alone, which the answers to other tools never touch; questions about
// the surface and per item are built after the answers before them are
// handed on, as their scopes see every answer so far.
func askEach(ctx context.Context, asker Asker, q *rubric.Question, sh *shared, n int, tolerant bool, put func(target, ask.Observation) error,
	at func(i int) (*eval.Scope, string, target, error), states []*check.State, done func(i int)) error {
	build := func(lo, hi int) (batch, error) {
		b := batch{lo: lo, hi: hi}
		built := make([]ask.Request, hi-lo)
		ok := make([]bool, hi-lo)
		ts := make([]target, hi-lo)
		if err := parallel.For(ctx, hi-lo, 0, func(k int) error {
			sc, subject, t, err := at(lo + k)
			if err != nil {
				return err
			}
			if built[k], ok[k], err = request(q, sc, subject, sh); err != nil {
				who := ""
				if t.tool >= 0 {
					who = states[t.tool].Name
				}
				return &eval.Error{Tool: who, Formula: fmt.Sprintf("question %q", q.Name), Err: err}
			}
			ts[k] = t
			return nil
		}); err != nil {
			return b, err
		}
		for k := range built {
			if ok[k] {
				built[k].MayStayUnreadable = tolerant
				ts[k].value = new(any)
				built[k].Value = ts[k].value
				b.reqs = append(b.reqs, built[k])
				b.where = append(b.where, ts[k])
				b.inputBytes += len(built[k].InputJSON)
			}
		}
		return b, nil
	}
	// next is the size of the batch after b: about batchBytes of inputs
	// once b has shown how large they are.
	next := func(b batch) int {
		if len(b.reqs) == 0 {
			return maxBatch
		}
		return min(max(batchBytes/max(b.inputBytes/len(b.reqs), 1), minBatch), maxBatch)
	}
	// after builds the batch that follows b.
	after := func(b batch) builtAhead {
		nb, err := build(b.hi, min(b.hi+next(b), n))
		return builtAhead{nb, err}
	}
	if n == 0 {
		return nil
	}
	ahead := q.Per == rubric.PerTool
	cur, err := build(0, min(minBatch, n))
	if err != nil {
		return err
	}
	for {
		var following chan builtAhead
		if ahead && cur.hi < n {
			following = make(chan builtAhead, 1)
			go func(b batch) { following <- after(b) }(cur)
		}
		var obs []ask.Observation
		var askErr error
		if len(cur.reqs) > 0 {
			obs, askErr = asker.Ask(ctx, cur.reqs)
		}
		var nb builtAhead
		if following != nil {
			// Waited for even when the batch failed, so that no build
			// outlives the call.
			nb = <-following
		}
		if askErr != nil {
			return askErr
		}
		for k, o := range obs {
			if err := put(cur.where[k], o); err != nil {
				return err
			}
		}
		if done != nil {
			for i := cur.lo; i < cur.hi; i++ {
				done(i)
			}
		}
		if cur.hi >= n {
			return nil
		}
		if following == nil {
			nb = after(cur)
		}
		if nb.err != nil {
			return nb.err
		}
		cur = nb.b
	}
}

// batch is the requests of one batch of askEach, with where each answer
// goes: the asked ones among those with indexes lo to hi-1.
type batch struct {
	lo, hi     int
	reqs       []ask.Request
	where      []target
	inputBytes int
}

// builtAhead is a batch built ahead, or why it could not be.
type builtAhead struct {
	b   batch
	err error
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
func shareOf(q *rubric.Question, sc *eval.Scope) (*shared, error) {
	if q.Shared == nil {
		return nil, nil
	}
	fail := func(err error) error {
		return &eval.Error{Formula: fmt.Sprintf("question %q shared", q.Name), Program: q.Shared, Err: err}
	}
	v, err := sc.Eval(q.Shared)
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
func (sh *shared) pick(q *rubric.Question, sc *eval.Scope) (*ask.Shared, error) {
	if sh == nil {
		return nil, nil
	}
	if q.Share == nil {
		return sh.all, nil
	}
	name, err := eval.String(q.Share, sc)
	if err != nil {
		return nil, fmt.Errorf("share: %w", err)
	}
	e, ok := sh.entries[name]
	if !ok {
		return nil, fmt.Errorf("share: %w", eval.At(q.Share, fmt.Errorf("%q names no entry of the shared value", name)))
	}
	return e, nil
}

// request evaluates a question's when and input in sc; ok is false when
// the question is not to be asked.
func request(q *rubric.Question, sc *eval.Scope, subject string, sh *shared) (ask.Request, bool, error) {
	if q.When != nil {
		ok, err := eval.Bool(q.When, sc)
		if err != nil {
			return ask.Request{}, false, fmt.Errorf("when: %w", err)
		}
		if !ok {
			return ask.Request{}, false, nil
		}
	}
	v, err := sc.Eval(q.Input)
	if err != nil {
		return ask.Request{}, false, fmt.Errorf("input: %w", err)
	}
	// Numbers come as the JSON text they are written as, which is what
	// the templates see: the maps that hold them (a tool's signals) are
	// then the templates' as they are, not copied to change them.
	n, err := lang.NativeWritten(v)
	if err != nil {
		return ask.Request{}, false, fmt.Errorf("input: %w", eval.At(q.Input, err))
	}
	// What the templates see is made from the value itself rather than
	// by reading back the JSON written of it (a tenth of a second at
	// 5,000 TDQS tools); when it cannot be, the asker decodes the JSON
	// when it renders the prompts. When it can, the JSON is written from
	// it: it is what the JSON reads back as, so it writes the same bytes,
	// and its numbers are already JSON text, where the definition's
	// binary floats were each written through encoding/json's encoder.
	input, ok := ask.TemplateInput(n)
	written := input
	if !ok {
		written = n
	}
	b, err := lang.MarshalCanonical(written)
	if err != nil {
		return ask.Request{}, false, fmt.Errorf("input: %w", eval.At(q.Input, err))
	}
	share, err := sh.pick(q, sc)
	if err != nil {
		return ask.Request{}, false, err
	}
	return ask.Request{Question: q, Subject: subject, Input: input, InputJSON: b, InputHash: ask.InputHash(b, share), Shared: share}, true, nil
}

// usageOf is what one answer cost, as surface formulas see it: tokens,
// the input and output tokens the judge reported; or, when it reported
// none (the heuristic, a replayed file, a provider without usage), the
// tokens of the prompts and the answer counted offline when the question
// was asked (encoding names the tokenizer); or, for an observation
// recorded before rubric counted them, an estimate: the UTF-8 bytes of
// the prompts and the answer divided by 4, rounded half up. estimated
// says whether it is the estimate.
func usageOf(o report.Observation) map[string]any {
	if n := o.Tokens.Input + o.Tokens.Output; n > 0 {
		return map[string]any{"tokens": int64(n), "estimated": false}
	}
	if c := o.Counted; c != nil {
		return map[string]any{"tokens": int64(c.Prompt + c.Answer), "estimated": false, "encoding": c.Encoding}
	}
	return map[string]any{"tokens": int64((o.PromptBytes + len(o.Answer) + 2) / 4), "estimated": true}
}

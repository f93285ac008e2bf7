// Package panel combines several judges into one: every question goes to
// each member, and the panel's answer is, value by value, the median of
// theirs. It knows no rubric and no question kind: it combines any JSON
// answers by their shape, so a panel answers whatever its members answer.
//
// The panel's identity names its members' identities in order, so its
// answers are cached, reported and calibrated as one judge's, and a
// change of any member (its version, its model) is a change of the
// panel's identity. With a Memo, each member's answers are also kept
// under the member's own identity, as the member alone would keep them,
// so that no member is paid twice for one answer.
package panel

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/judge"
)

// Version is the version of the combination rule; it is part of the
// panel's identity.
const Version = "1"

// Panel is a judge made of member judges.
type Panel struct {
	members []judge.Judge
	ids     []judge.Identity

	// held keeps, by question (questionKey), the readable answers of the
	// members that answered a question the panel could not answer (a
	// later member failed, was rate limited or unreadable), until the
	// question is asked again: only the members without one are asked
	// then, so that a member's trouble does not pay the others twice.
	mu   sync.Mutex
	held map[string][]*memberAnswer

	// Memo, when set, keeps the members' answers beyond the run (see
	// Memo); nil keeps none.
	Memo Memo
}

// Memo keeps each member's answers beyond the run, under the member's own
// identity: the answer a member gives as part of a panel is the one it
// gives alone, so a member asked alone before, or in another panel, is
// not paid for it again. Get returns member's kept answer to q, if any,
// costing nothing; Put keeps an answer member just gave to q. What names
// a question beyond q (its rubric question, the hash of its input) an
// implementation reads from ctx, where whoever asks the panel puts it.
type Memo interface {
	Get(ctx context.Context, member judge.Identity, q judge.Question) (judge.Answer, bool)
	Put(ctx context.Context, member judge.Identity, q judge.Question, a judge.Answer)
}

// memberAnswer is a member's readable answer: its JSON and the model
// that answered.
type memberAnswer struct {
	doc   any
	model string
}

// questionKey names a question by everything a member is asked.
func questionKey(q judge.Question) string {
	b, _ := json.Marshal(q)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// New returns a panel of members, at least two.
func New(members ...judge.Judge) (*Panel, error) {
	if len(members) < 2 {
		return nil, fmt.Errorf("a judge panel needs at least two members, not %d", len(members))
	}
	return &Panel{members: members}, nil
}

// identity names the panel by its members.
func identity(ids []judge.Identity) judge.Identity {
	names := make([]string, len(ids))
	members := make([]any, len(ids))
	heuristic := true
	for i, id := range ids {
		names[i] = memberName(id.Plugin, id.Model)
		b, _ := json.Marshal(id)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		members[i] = m
		heuristic = heuristic && id.Heuristic
	}
	return judge.Identity{
		Plugin:    "panel",
		Version:   Version,
		Model:     "median of " + strings.Join(names, ", "),
		Params:    map[string]any{"members": members},
		Heuristic: heuristic,
	}
}

// MemberIdentities is the identities of the members a panel's identity
// names, in order; false when id is not a panel's. Each question the
// panel is asked is a call to each of them.
func MemberIdentities(id judge.Identity) ([]judge.Identity, bool) {
	if id.Plugin != "panel" {
		return nil, false
	}
	b, err := json.Marshal(id.Params["members"])
	if err != nil {
		return nil, false
	}
	var ids []judge.Identity
	if json.Unmarshal(b, &ids) != nil || len(ids) == 0 {
		return nil, false
	}
	return ids, true
}

// memberName is "plugin:model", or what of it there is.
func memberName(plugin, model string) string {
	switch {
	case plugin == "":
		return model
	case model == "":
		return plugin
	}
	return plugin + ":" + model
}

// Describe describes every member and names them.
func (p *Panel) Describe(ctx context.Context) (judge.Identity, error) {
	ids := make([]judge.Identity, len(p.members))
	for i, m := range p.members {
		id, err := m.Describe(ctx)
		if err != nil {
			return judge.Identity{}, fmt.Errorf("panel member %d: %w", i+1, err)
		}
		ids[i] = id
	}
	return identity(ids), nil
}

// Configure passes c to every member (each member of a panel built from
// separately configured judges is configured before New, and c is then
// empty) and returns the identity naming what they configured.
func (p *Panel) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	ids := make([]judge.Identity, len(p.members))
	for i, m := range p.members {
		id, err := m.Configure(ctx, c)
		if err != nil {
			return judge.Identity{}, fmt.Errorf("panel member %d: %w", i+1, err)
		}
		ids[i] = id
	}
	p.ids = ids
	return identity(ids), nil
}

// Ask asks every member in turn and combines their answers. An error of
// any member is the panel's, naming the member (its type kept for
// errors.As: a rate limit is still waited out): a member that cannot
// answer leaves the panel without its median, and the answers of the
// others are held for the question's next ask, which asks only the
// members still without one. The tokens are the members' sum (those read from
// the provider's prompt cache too, billed at their own price); the model names
// each member's.
func (p *Panel) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	key := questionKey(q)
	p.mu.Lock()
	got := p.held[key]
	delete(p.held, key)
	p.mu.Unlock()
	if got == nil {
		got = make([]*memberAnswer, len(p.members))
	}
	// keep holds the members' readable answers for the question's next
	// ask, when this one fails.
	keep := func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.held == nil {
			p.held = map[string][]*memberAnswer{}
		}
		p.held[key] = got
	}
	// What the members asked now cost is the panel's, answered or not:
	// the members before a failing one were paid. Those held from an
	// earlier ask were counted then.
	var tokens judge.Tokens
	var failed error
	for i, m := range p.members {
		if got[i] != nil {
			continue
		}
		if doc, model, ok := p.kept(ctx, i, q); ok {
			got[i] = &memberAnswer{doc: doc, model: model}
			continue
		}
		a, err := m.Ask(ctx, q)
		tokens = tokens.Add(a.Tokens)
		if err != nil {
			if ctx.Err() != nil {
				return judge.Answer{Tokens: tokens}, err
			}
			keep()
			// Named, so that a user can tell which member to mend.
			return judge.Answer{Tokens: tokens}, fmt.Errorf("panel member %d (%s): %w", i+1, p.memberLabel(i), err)
		}
		doc, err := decodeAnswer(a.JSON)
		if err != nil {
			// The others are still asked, so that a retry asks only this
			// member.
			if failed == nil {
				failed = &judge.UnreadableError{Msg: fmt.Sprintf("panel member %d answered with no JSON: %v", i+1, err)}
			}
			continue
		}
		got[i] = &memberAnswer{doc: doc, model: a.Model}
		if p.Memo != nil && i < len(p.ids) {
			p.Memo.Put(ctx, p.ids[i], q, a)
		}
	}
	if failed != nil {
		keep()
		return judge.Answer{Tokens: tokens}, failed
	}
	docs := make([]any, len(got))
	models := make([]string, len(got))
	for i, g := range got {
		docs[i], models[i] = g.doc, p.answeredBy(i, g.model)
	}
	out, err := json.Marshal(Combine(docs))
	if err != nil {
		return judge.Answer{}, err
	}
	return judge.Answer{JSON: out, Model: "median of " + strings.Join(models, ", "), Tokens: tokens}, nil
}

// kept is member i's answer to q as the Memo keeps it, decoded; false
// when there is no Memo, no identity to look the member up by, no
// answer kept, or one that is no JSON.
func (p *Panel) kept(ctx context.Context, i int, q judge.Question) (doc any, model string, ok bool) {
	if p.Memo == nil || i >= len(p.ids) {
		return nil, "", false
	}
	a, ok := p.Memo.Get(ctx, p.ids[i], q)
	if !ok {
		return nil, "", false
	}
	doc, err := decodeAnswer(a.JSON)
	if err != nil {
		return nil, "", false
	}
	return doc, a.Model, true
}

// decodeAnswer reads an answer's JSON, numbers kept as written.
func decodeAnswer(b []byte) (any, error) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	err := dec.Decode(&doc)
	return doc, err
}

// memberLabel names member i as the panel's identity does
// ("openai:gpt-4o"), or by its place when the panel has no identities.
func (p *Panel) memberLabel(i int) string {
	if i < len(p.ids) {
		return memberName(p.ids[i].Plugin, p.ids[i].Model)
	}
	return fmt.Sprintf("member %d", i+1)
}

// answeredBy names the model that answered for member i as the panel's
// identity names the member, so that an answer from the members'
// configured models carries the panel's model: a dated snapshot of the
// member's pinned model (gpt-4o answered by gpt-4o-2024-08-06, see
// judge.SameModel) by the pinned id, as a single judge's pin accepts it;
// any other model by its own name, which the run then refuses as not
// the panel's.
func (p *Panel) answeredBy(i int, model string) string {
	if i >= len(p.ids) {
		return memberName("", model)
	}
	id := p.ids[i]
	if id.Model != "" && judge.SameModel(id.Model, model) {
		model = id.Model
	}
	return memberName(id.Plugin, model)
}

// Combine is the panel's answer from its members' answers (JSON values
// decoded with UseNumber), value by value:
//
//   - numbers: the median; of an even count, the lower of the two middle
//     values, so that the answer is one a member gave (an integer stays
//     an integer, and stays within the answer schema's bounds);
//   - objects: member by member, over the members of the first answer;
//     a member missing from some answers is combined from those that
//     have it;
//   - arrays: element by element when every answer has the same length;
//     otherwise the array most answers gave (the earliest on a tie);
//   - anything else (text, true/false, null, or values of differing
//     kinds): the value most answers gave, the earliest on a tie.
func Combine(vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	switch first := vals[0].(type) {
	case json.Number:
		var nums []json.Number
		for _, v := range vals {
			n, ok := v.(json.Number)
			if !ok {
				return majority(vals)
			}
			nums = append(nums, n)
		}
		return lowerMedian(nums)
	case map[string]any:
		out := map[string]any{}
		for k := range first {
			var col []any
			for _, v := range vals {
				if m, ok := v.(map[string]any); ok {
					if x, ok := m[k]; ok {
						col = append(col, x)
					}
				}
			}
			out[k] = Combine(col)
		}
		return out
	case []any:
		for _, v := range vals {
			a, ok := v.([]any)
			if !ok || len(a) != len(first) {
				return majority(vals)
			}
		}
		out := make([]any, len(first))
		for i := range first {
			col := make([]any, len(vals))
			for j, v := range vals {
				col[j] = v.([]any)[i]
			}
			out[i] = Combine(col)
		}
		return out
	default:
		return majority(vals)
	}
}

// lowerMedian is the middle number, or the lower of the two middle ones.
func lowerMedian(nums []json.Number) json.Number {
	s := slices.Clone(nums)
	slices.SortStableFunc(s, func(a, b json.Number) int {
		x, _ := a.Float64()
		y, _ := b.Float64()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return s[(len(s)-1)/2]
}

// majority is the value most of vals are (compared as JSON), the
// earliest on a tie.
func majority(vals []any) any {
	keys := make([]string, len(vals))
	for i, v := range vals {
		b, _ := json.Marshal(v)
		keys[i] = string(b)
	}
	best, bestN := 0, 0
	for i, k := range keys {
		n := 0
		for _, l := range keys {
			if l == k {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return vals[best]
}

// Prefix starts a judge reference that names a panel: "panel:A,B,C" is
// the panel of the judges A, B and C, each a name or a path as --judge
// takes it, with its own settings if need be (judge.SplitRef):
// "panel:openai:model=gpt-4o,temperature=0,anthropic:model=claude-x".
const Prefix = "panel:"

// Members splits a panel reference into its members' references; false
// when ref names no panel. An item with '=' and no ':' before it is a
// setting of the member before it; any other item starts a member.
func Members(ref string) ([]string, bool) {
	rest, ok := strings.CutPrefix(ref, Prefix)
	if !ok {
		return nil, false
	}
	var out []string
	for _, m := range strings.Split(rest, ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		eq := strings.Index(m, "=")
		if colon := strings.Index(m, ":"); eq >= 0 && (colon < 0 || colon > eq) && len(out) > 0 && strings.Contains(out[len(out)-1], ":") {
			out[len(out)-1] += "," + m
			continue
		}
		out = append(out, m)
	}
	return out, true
}

// Started is a panel of started, configured judge plugins, as the plugin
// host returns one judge: closing it closes every member.
type Started struct {
	*Panel
	plugins []judge.Plugin
}

// Start makes a panel of started, configured plugins and returns it
// configured: its identity names the members' identities.
func Start(plugins ...judge.Plugin) (*Started, error) {
	members := make([]judge.Judge, len(plugins))
	ids := make([]judge.Identity, len(plugins))
	for i, p := range plugins {
		members[i], ids[i] = p, p.Identity()
	}
	p, err := New(members...)
	if err != nil {
		return nil, err
	}
	p.ids = ids
	return &Started{Panel: p, plugins: plugins}, nil
}

// Configure leaves the members as they were configured when they
// started, and returns the panel's identity.
func (s *Started) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return s.Identity(), nil
}

// Name is "panel".
func (s *Started) Name() string { return "panel" }

// Identity names the members' identities.
func (s *Started) Identity() judge.Identity { return identity(s.ids) }

// SHA256 lists the members' executable digests, in order, for those that
// have one (an external plugin); empty when none has.
func (s *Started) SHA256() string {
	var sums []string
	for _, p := range s.plugins {
		if d := p.SHA256(); d != "" {
			sums = append(sums, d)
		}
	}
	return strings.Join(sums, ",")
}

// Close ends every member.
func (s *Started) Close() {
	for _, p := range s.plugins {
		p.Close()
	}
}

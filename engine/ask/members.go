package ask

import (
	"context"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// asked is what names a question beyond the judge.Question an asker
// sends: what a judge made of several (a panel) needs to keep each of
// its members' answers where that member, asked alone, keeps its own
// (cache.SaltedKey over the member's identity). The asker puts it in the
// context of each call while it caches answers; the members' Memo reads
// it and counts what it found.
type asked struct {
	rubric      string // the rubric's digest
	question    *rubric.Question
	kind        string
	subject     string
	inputHash   string
	salt        string
	promptBytes int
	fresh       bool

	// kept and put count the members' answers the Memo read and wrote
	// during the call: an answer made wholly of kept ones cost no call.
	kept, put int
}

type askedKey struct{}

// withAsked is ctx carrying a.
func withAsked(ctx context.Context, a *asked) context.Context {
	return context.WithValue(ctx, askedKey{}, a)
}

// askedOf is the question ctx carries, nil when none.
func askedOf(ctx context.Context) *asked {
	a, _ := ctx.Value(askedKey{}).(*asked)
	return a
}

// MemberMemo keeps a panel's members' answers in the answer cache, each
// under the key the member alone would use: a member asked alone before
// (or in another panel) is not asked again for the same question, and
// what a member answers in a panel serves it alone later. An answer is
// kept only when it satisfies the question's answer schema, as an
// asker's own are; one given by another model than the member's is not
// read back. It is a panel.Memo.
type MemberMemo struct {
	Cache *cache.Store
}

// Get returns member's cached answer to the question ctx carries, with
// no tokens: it costs nothing now. Nothing is read when the call asks
// afresh (Asker.Fresh).
func (m MemberMemo) Get(ctx context.Context, member judge.Identity, _ judge.Question) (judge.Answer, bool) {
	a := askedOf(ctx)
	if m.Cache == nil || a == nil || a.fresh {
		return judge.Answer{}, false
	}
	e, ok := m.Cache.Get(cache.SaltedKey(member, a.rubric, a.question.Digest, a.inputHash, a.salt))
	if !ok || member.Model != "" && !judge.SameModel(member.Model, e.Model) {
		return judge.Answer{}, false
	}
	if _, ok := validCached(a.question, e.Answer); !ok {
		return judge.Answer{}, false
	}
	a.kept++
	return judge.Answer{JSON: e.Answer, Model: e.Model}, true
}

// Put caches the answer member just gave to the question ctx carries,
// when it is readable against the question's answer schema. A write
// that fails is left: the panel's own answer is still cached by its
// asker, which reports a cache that cannot be written.
func (m MemberMemo) Put(ctx context.Context, member judge.Identity, _ judge.Question, ans judge.Answer) {
	a := askedOf(ctx)
	if m.Cache == nil || a == nil {
		return
	}
	answer, _, err := readAnswer(a.question, ans.JSON)
	if err != nil {
		return
	}
	a.put++
	key := cache.SaltedKey(member, a.rubric, a.question.Digest, a.inputHash, a.salt)
	_ = m.Cache.Put(cache.Entry{
		Key: key, Judge: member, Rubric: a.rubric, Question: a.question.Digest, Kind: a.kind,
		Subject: a.subject, InputHash: a.inputHash, Answer: answer, Model: ans.Model, Tokens: ans.Tokens,
		PromptBytes: a.promptBytes, Salt: a.salt,
	})
}

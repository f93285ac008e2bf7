package ask_test

import (
	"context"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
)

// member is a counting judge with an identity, as a panel's member.
type member struct {
	*counting
	id judge.Identity
}

func (m member) Describe(context.Context) (judge.Identity, error) { return m.id, nil }
func (m member) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return m.id, nil
}

// panelOf is a panel of ms whose members' answers are cached in store.
func panelOf(t *testing.T, store *cache.Store, ms ...judge.Judge) (*panel.Panel, judge.Identity) {
	t.Helper()
	p, err := panel.New(ms...)
	if err != nil {
		t.Fatal(err)
	}
	id, err := p.Configure(context.Background(), judge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p.Memo = ask.MemberMemo{Cache: store}
	return p, id
}

// TestPanelMembersShareTheCache: what a judge answered alone, a panel
// holding it does not ask it again; what a panel's members answered,
// another panel of the same members, or a member alone, reads from the
// cache; and a panel's answer made wholly of its members' cached ones is
// counted as read from the cache, not as a call.
func TestPanelMembersShareTheCache(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reqs := requests(t, r, names(5)...)
	a := member{&counting{model: "m1"}, judge.Identity{Plugin: "counting", Version: "1", Model: "m1"}}
	b := member{&counting{model: "m2"}, judge.Identity{Plugin: "counting", Version: "1", Model: "m2"}}
	run := func(j ask.Judge, id judge.Identity) ask.Stats {
		t.Helper()
		as := &ask.Asker{Judge: j, Identity: id, Rubric: r, Cache: store}
		obs, err := as.Ask(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range obs {
			if string(o.Answer) != `{"n":7}` {
				t.Fatalf("%s: answer %s, want {\"n\":7}", id.Model, o.Answer)
			}
		}
		return as.Stats()
	}
	calls := func() [2]int64 { return [2]int64{a.calls.Load(), b.calls.Load()} }

	run(a, a.id)
	ab, abID := panelOf(t, store, a, b)
	if s := run(ab, abID); s.Calls != 5 || s.CacheHits != 0 || calls() != [2]int64{5, 5} {
		t.Errorf("panel of a and b after a alone: stats %+v, member calls %v; want b alone asked, 5 calls", s, calls())
	}
	ba, baID := panelOf(t, store, b, a)
	if baID.Model == abID.Model {
		t.Fatalf("the panels share an identity: %s", baID.Model)
	}
	if s := run(ba, baID); s.Calls != 0 || s.CacheHits != 5 || calls() != [2]int64{5, 5} {
		t.Errorf("panel of b and a: stats %+v, member calls %v; want every answer from the members' cache", s, calls())
	}
	if s := run(b, b.id); s.Calls != 0 || s.CacheHits != 5 || b.calls.Load() != 5 {
		t.Errorf("b alone after the panels: stats %+v, b asked %d times; want its answers in the panel read from the cache", s, b.calls.Load())
	}
	// An asker without a cache (--no-cache) leaves the members' cache
	// alone: they are asked again.
	if _, err := (&ask.Asker{Judge: ab, Identity: abID, Rubric: r}).Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if calls() != [2]int64{10, 10} {
		t.Errorf("member calls %v without a cache, want each asked again", calls())
	}
}

package openai_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/readmetest"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
	"github.com/rubricmcp/rubric/judges/openai"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestFakeCachedTokens: the fake reports cached tokens as the hosted API
// documents them: nothing below 1,024 common tokens, then 1,024 and
// whole blocks of 128.
func TestFakeCachedTokens(t *testing.T) {
	for _, c := range []struct{ common, want int }{
		{0, 0}, {1023, 0}, {1024, 1024}, {1151, 1024}, {1152, 1152}, {5000, 4992},
	} {
		if got := judgetest.CachedTokens(c.common); got != c.want {
			t.Errorf("CachedTokens(%d) = %d, want %d", c.common, got, c.want)
		}
	}
}

// layoutJudge answers with the offline judge, so that a whole scan runs
// as it would, and sends every question to a chat completions endpoint
// too, whose usage it reports. With taskFirst it sends the question's own
// text before the shared context, as prompts were laid out before the
// shared context went first.
type layoutJudge struct {
	answers   judge.Judge
	asked     judge.Judge
	taskFirst bool
}

func (j layoutJudge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	sent := q
	if j.taskFirst && q.Context != "" {
		sent.Context, sent.User = "", q.User+"\n\n"+q.Context
	}
	usage, err := j.asked.Ask(ctx, sent)
	if err != nil {
		return judge.Answer{}, err
	}
	a, err := j.answers.Ask(ctx, q)
	a.Tokens = usage.Tokens
	return a, err
}

// TestPromptLayoutCaching scores gitlab's 118 tools with Gradable and
// with TDQS against a fake OpenAI endpoint that caches prompt prefixes
// as the hosted API does, with the shared context (the server's tools)
// after the question's own text, as before, and before it, as now, and
// checks that the calls block reports what the endpoint counted. Laid
// out as now, Gradable's uncached input tokens are at most half of
// what they were.
func TestPromptLayoutCaching(t *testing.T) {
	heavytest.Later(t)
	src, err := os.ReadFile(filepath.Join("..", "..", "engine", "score", "testdata", "corpus", "gitlab.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	surf, err := surface.Parse("gitlab", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(surf.Tools) != 118 {
		t.Fatalf("gitlab has %d tools, want 118", len(surf.Tools))
	}
	ctx := context.Background()
	scan := func(t *testing.T, name string, taskFirst bool) judgetest.Usage {
		r, err := rubrics.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		h := heuristic.New()
		id, err := h.Describe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		fake := judgetest.ServeCaching(t, "{}")
		oj := openai.New()
		if _, err := oj.Configure(ctx, judge.Config{Model: "gpt-4o-mini", Options: map[string]string{"base_url": fake.URL}}); err != nil {
			t.Fatal(err)
		}
		// One question at a time, so that which prompt came first is
		// the run's order and not the scheduler's.
		a := &ask.Asker{Judge: layoutJudge{answers: h, asked: oj, taskFirst: taskFirst}, Identity: id, Rubric: r, Concurrency: 1}
		if _, err := score.Run(ctx, r, surf, score.Options{Asker: a}); err != nil {
			t.Fatal(err)
		}
		u := fake.Usage()
		calls := a.Stats().Report(ask.Stats{})
		if calls.InputTokens != u.PromptTokens || calls.CachedInputTokens == nil || *calls.CachedInputTokens != u.CachedTokens ||
			*calls.UncachedInputTokens != u.Uncached() || calls.Model != u.Requests {
			t.Errorf("%s: calls block %+v, the endpoint counted %+v", name, calls, u)
		}
		return u
	}
	for _, c := range []struct {
		rubric string
		// most is the largest share of the old layout's uncached input
		// tokens the new one may spend.
		most float64
	}{
		{"gradable", 0.5},
		{"tdqs", 1},
	} {
		t.Run(c.rubric, func(t *testing.T) {
			before, after := scan(t, c.rubric, true), scan(t, c.rubric, false)
			readmeFigures(t, c.rubric, before, after)
			t.Logf("%s on gitlab (118 tools), %d calls: uncached input tokens %d before (%d of %d cached), %d after (%d of %d cached): %.1f%% of before",
				c.rubric, after.Requests, before.Uncached(), before.CachedTokens, before.PromptTokens,
				after.Uncached(), after.CachedTokens, after.PromptTokens, 100*float64(after.Uncached())/float64(before.Uncached()))
			if before.Requests != after.Requests {
				t.Errorf("%d calls before, %d after: the layout changed what was asked", before.Requests, after.Requests)
			}
			if float64(after.Uncached()) > c.most*float64(before.Uncached()) {
				t.Errorf("uncached input tokens %d after, %d before: want at most %.0f%% of before", after.Uncached(), before.Uncached(), 100*c.most)
			}
		})
	}
}

// readmeFigures checks that README.md's paragraph on the provider's
// prompt cache quotes what the run before and after counted, as it
// words them: Gradable in millions of tokens with the share after, TDQS
// in thousands.
func readmeFigures(t *testing.T, rubric string, before, after judgetest.Usage) {
	t.Helper()
	readme := readmetest.Text(t)
	// The paragraph breaks its lines anywhere: compare with the line
	// breaks read as spaces.
	text := strings.Join(strings.Fields(readme), " ")
	var want string
	switch rubric {
	case "gradable":
		want = fmt.Sprintf("(%d calls) sends %.1f M uncached input tokens with the task before the tool list and %.2f M with it after (%.1f%%)",
			after.Requests, float64(before.Uncached())/1e6, float64(after.Uncached())/1e6, 100*float64(after.Uncached())/float64(before.Uncached()))
	case "tdqs":
		want = fmt.Sprintf("TDQS (%d calls) %.0f k and %.0f k", after.Requests, float64(before.Uncached())/1e3, float64(after.Uncached())/1e3)
	default:
		return
	}
	if !strings.Contains(text, want) {
		t.Errorf("README.md does not quote this run's figures: want %q in its paragraph on the provider's prompt cache", want)
	}
}

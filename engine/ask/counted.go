package ask

import (
	"sync"
	"sync/atomic"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
)

// CountEncoding is the encoding an answer's cost is counted in when its
// judge reports no tokens (the heuristic, a replayed file, a provider
// without usage): o200k_base, the tokenizer of GPT-4o and later OpenAI
// models, whose table is in the binary. Other providers' tokenizers are
// not public; it stands for them, as it does for definition tokens.
const CountEncoding = "o200k_base"

// promptCounts remembers the tokens of the system prompts counted so far:
// a rubric has a few, each sent with thousands of questions. A template
// that makes a system prompt of each input would fill it, so it keeps
// at most maxPromptCounts.
var (
	promptCounts  sync.Map // system prompt → int
	promptCounted atomic.Int32
)

const maxPromptCounts = 64

// countedTokens counts what an answer given to prompts p cost, when its
// judge reported nothing (tokens zero); nil otherwise. The shared prompt
// is counted once for every request sharing it.
func countedTokens(r Request, p prompts, answer []byte, tokens judge.Tokens) (*judge.CountedTokens, error) {
	if tokens.Input+tokens.Output > 0 {
		return nil, nil
	}
	system, err := countSystem(p.system)
	if err != nil {
		return nil, err
	}
	shared := 0
	if r.Shared != nil && p.context != "" {
		if shared, err = r.Shared.tokens(p.context); err != nil {
			return nil, err
		}
	}
	user, err := lang.CountTokens(p.user, CountEncoding)
	if err != nil {
		return nil, err
	}
	ans, err := lang.CountTokens(string(answer), CountEncoding)
	if err != nil {
		return nil, err
	}
	return &judge.CountedTokens{Encoding: CountEncoding, Prompt: system + shared + user, Answer: ans}, nil
}

func countSystem(system string) (int, error) {
	if n, ok := promptCounts.Load(system); ok {
		return n.(int), nil
	}
	n, err := lang.CountTokens(system, CountEncoding)
	if err != nil {
		return 0, err
	}
	if promptCounted.Add(1) <= maxPromptCounts {
		promptCounts.Store(system, n)
	}
	return n, nil
}

// tokens counts the shared prompt context, rendered from s, once.
func (s *Shared) tokens(context string) (int, error) {
	s.countOnce.Do(func() { s.count, s.countErr = lang.CountTokens(context, CountEncoding) })
	return s.count, s.countErr
}

// fromCache fills o with the answer e the cache holds for r. An entry
// kept before entries had the prompts' size, or (when the asker counts
// tokens) their count for a judge that reported no tokens, has them made
// again from r's prompts.
func (a *Asker) fromCache(o *Observation, e cache.Entry, r Request) error {
	o.Answer, o.Model, o.Tokens, o.PromptBytes, o.Cached = e.Answer, e.Model, e.Tokens, e.PromptBytes, true
	if a.CountTokens {
		o.Counted = e.Counted
	}
	reported := e.Tokens.Input+e.Tokens.Output > 0
	if o.PromptBytes > 0 && (reported || o.Counted != nil || !a.CountTokens) {
		return nil
	}
	p, err := render(r)
	if err != nil {
		return err
	}
	o.PromptBytes = p.bytes()
	if a.CountTokens {
		o.Counted, err = countedTokens(r, p, e.Answer, e.Tokens)
	}
	return err
}

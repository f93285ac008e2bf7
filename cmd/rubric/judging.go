package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// defaultJudge answers a rubric's questions when no judge is named: the
// offline heuristic, which needs no key and no network.
const defaultJudge = "heuristic"

// judgeFlags are the flags that say who answers a rubric's questions and
// how.
func judgeFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("judge", "", "judge plugin, a name or the path of an executable (default: heuristic, for rubrics that ask questions)")
	f.String("model", "", "the model the judge must answer with; answers from any other model are refused")
	f.String("base-url", "", "the API's base URL, for the openai and anthropic judges (vLLM, llama.cpp, Ollama, a proxy)")
	f.String("answers", "", "the answers file of the replay judge (JSONL: kind, subject, answer)")
	f.StringArray("judge-option", nil, "judge option KEY=VALUE, such as temperature=0 or seed=7 (repeatable)")
	f.String("record", "", "write every answer of the run to this JSONL file, which the replay judge reads")
	f.Int("concurrency", ask.DefaultConcurrency, "questions asked at once")
	f.Bool("no-cache", false, "neither read nor write the answer cache")
	f.String("cache-dir", "", "the answer cache (default: rubric under the user cache directory)")
	f.Bool("progress", true, "show a progress bar on standard error when it is a terminal")
}

// judgeConfig is what --model, --base-url, --answers and --judge-option
// ask of the judge.
func (a *app) judgeConfig() (judge.Config, error) {
	cfg := judge.Config{Model: a.v.GetString("model"), Options: map[string]string{}}
	for _, kv := range a.v.GetStringSlice("judge-option") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cfg, fmt.Errorf("--judge-option %q: want KEY=VALUE, such as temperature=0", kv)
		}
		cfg.Options[k] = v
	}
	if u := a.v.GetString("base-url"); u != "" {
		cfg.Options["base_url"] = u
	}
	if p := a.v.GetString("answers"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			return cfg, err
		}
		cfg.Options["answers"] = abs
	}
	return cfg, nil
}

// judgeRef is the judge a run uses: --judge, else the heuristic when the
// rubric asks questions, else none.
func (a *app) judgeRef(r *rubric.Rubric) string {
	if ref := a.v.GetString("judge"); ref != "" {
		return ref
	}
	if len(r.Questions) > 0 {
		return defaultJudge
	}
	return ""
}

// runJudge is the run's judge: the running plugin and where it came from.
type runJudge struct {
	*host.Judge
	plugin host.Plugin
}

// startJudge starts and configures the run's judge; nil when the run
// needs none. A model the judge configured other than the pinned one is
// refused here, before anything is asked.
func (a *app) startJudge(ctx context.Context, h *host.Host, c *host.Catalog, r *rubric.Rubric) (*runJudge, error) {
	ref := a.judgeRef(r)
	if ref == "" {
		return nil, nil
	}
	p, err := c.Find(protocol.KindJudge, ref)
	if err != nil {
		return nil, err
	}
	cfg, err := a.judgeConfig()
	if err != nil {
		return nil, err
	}
	j, err := h.Judge(ctx, p, cfg)
	if err != nil {
		return nil, err
	}
	id := j.Identity()
	if cfg.Model != "" && !ask.SameModel(cfg.Model, id.Model) {
		j.Close()
		return nil, fmt.Errorf("the judge %q configured model %q, but the run pins model %q: refusing to ask another model", p.Name, id.Model, cfg.Model)
	}
	return &runJudge{Judge: j, plugin: p}, nil
}

// openCache opens the answer cache, or returns nil with --no-cache.
func (a *app) openCache() (*cache.Store, error) {
	if a.v.GetBool("no-cache") {
		return nil, nil
	}
	return a.cacheStore()
}

// cacheStore opens the answer cache at --cache-dir, or the default one.
func (a *app) cacheStore() (*cache.Store, error) {
	dir := a.v.GetString("cache-dir")
	if dir == "" {
		var err error
		if dir, err = cache.DefaultDir(); err != nil {
			return nil, err
		}
	}
	return cache.Open(dir)
}

// newAsker puts the rubric's questions to j, through the cache.
func (a *app) newAsker(ctx context.Context, r *rubric.Rubric, j *runJudge) (*ask.Asker, func(), error) {
	store, err := a.openCache()
	if err != nil {
		return nil, nil, err
	}
	if err := ask.ResolvePrompts(ctx, r, store); err != nil {
		return nil, nil, err
	}
	asker := &ask.Asker{
		Judge: j, Identity: j.Identity(), Model: a.v.GetString("model"), Rubric: r, Cache: store,
		Concurrency: a.v.GetInt("concurrency"),
	}
	if asker.Concurrency < 1 {
		return nil, nil, fmt.Errorf("--concurrency %d: ask at least one question at a time", asker.Concurrency)
	}
	done := func() {}
	if f, ok := a.stderr.(*os.File); ok && a.v.GetBool("progress") && isatty.IsTerminal(f.Fd()) {
		bar := newProgressBar(f, 100*time.Millisecond)
		asker.OnProgress = bar.update
		done = bar.finish
	}
	return asker, done, nil
}

// progress draws done/total, cache hits, tokens and the time left.
type progress struct {
	bar  *progressbar.ProgressBar
	done bool
}

func newProgressBar(w io.Writer, throttle time.Duration) *progress {
	return &progress{bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("asking"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(24),
	)}
}

func (p *progress) update(s ask.Progress) {
	if p.bar.GetMax() != s.Total {
		p.bar.ChangeMax(s.Total)
	}
	p.bar.Describe(fmt.Sprintf("asking · %d cached · %d tokens", s.Stats.CacheHits, s.Stats.Tokens.Input+s.Stats.Tokens.Output))
	_ = p.bar.Set(s.Done)
}

// finish clears the bar; calling it again does nothing.
func (p *progress) finish() {
	if !p.done {
		p.done = true
		_ = p.bar.Finish()
	}
}

// judgeBlock is the report's record of who answered, with the rubric's
// judge labels.
func judgeBlock(rj *runJudge, r *rubric.Rubric) *report.Judge {
	p := rj.plugin
	j := &report.Judge{Identity: rj.Identity(), Labels: r.JudgeLabels}
	if !p.Builtin() {
		j.SHA256 = p.SHA256
		if j.SHA256 == "" {
			j.SHA256, _ = host.FileSHA256(p.Path)
		}
	}
	return j
}

// writeRecord writes every answer of a report as a replay file.
func writeRecord(path string, rep *report.Report) error {
	var lines []judge.Recorded
	for o := range rep.Observations() {
		rec := judge.Recorded{Kind: o.Kind, Subject: o.Subject, Answer: o.Answer, Model: o.Model}
		if o.Tokens != (judge.Tokens{}) {
			rec.Tokens = &o.Tokens
		}
		lines = append(lines, rec)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		return judge.WriteRecorded(w, lines)
	})
}

package main

import (
	"fmt"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/progress"
)

// judgeFlags are the flags that say who answers a rubric's questions and
// how. A command that takes several judges (calibrate) declares --judge
// itself, repeatable, and sets "judge" to each in turn.
func judgeFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	if f.Lookup("judge") == nil {
		f.String("judge", "", "judge plugin, a name or the path of an executable (default: heuristic, for rubrics that ask questions)")
	}
	f.String("model", "", "the model the judge must answer with; answers from any other model are refused")
	f.String("base-url", "", "the API's base URL, for the openai and anthropic judges (vLLM, llama.cpp, Ollama, a proxy)")
	f.String("answers", "", "the answers file of the replay judge (JSONL: kind, subject, answer)")
	f.StringArray("judge-option", nil, "judge option KEY=VALUE, such as temperature=0 or seed=7 (repeatable)")
	f.String("record", "", "write every answer of the run to this JSONL file, which the replay judge reads")
	f.Int("concurrency", ask.DefaultConcurrency, "questions asked at once")
	f.Bool("no-cache", false, "neither read nor write the answer cache")
	f.String("cache-dir", "", "the answer cache (default: rubric under the user cache directory)")
	f.Bool("progress", true, "show a progress bar on standard error when it is a terminal")
	f.Float64("max-cost", 0, "the most the run may spend on judge calls, in US dollars: no call that could pass it is started (needs the judge option max_tokens and the model's price)")
}

// budget sets o's price table (the config's prices) and --max-cost.
func (a *app) budget(o *run.Options) error {
	p, err := ask.DecodePrices(a.v.Get("prices"))
	if err != nil {
		return err
	}
	return o.SetBudget(p, a.v.GetFloat64("max-cost"))
}

// judgeConfig is what --model, --base-url, --answers and --judge-option
// ask of the judge.
func (a *app) judgeConfig() (judge.Config, error) {
	v := a.v
	return judge.NewConfig(v.GetString("model"), v.GetStringSlice("judge-option"), v.GetString("base-url"), v.GetString("answers"))
}

// cacheStore opens the answer cache at --cache-dir, or the default one.
func (a *app) cacheStore() (*cache.Store, error) {
	return cache.Open(a.v.GetString("cache-dir"))
}

// session starts the plugin host and a scan session of the command's
// flags; judging says the command has the judge flags. Closing it ends
// the judge and every plugin.
func (a *app) session(judging bool) (*run.Session, func(), error) {
	o, closeHost, err := a.sessionOptions(judging)
	if err != nil {
		return nil, nil, err
	}
	s := run.New(o)
	a.sess = s
	return s, func() { s.Close(); closeHost() }, nil
}

// sessionOptions are the options of a session of the command's flags,
// with the plugin host started; closeHost ends it.
func (a *app) sessionOptions(judging bool) (o run.Options, closeHost func(), err error) {
	plugins, closeHost, err := a.plugins()
	if err != nil {
		return o, nil, err
	}
	o = run.Options{Plugins: plugins, Workers: a.v.GetInt("workers"), Version: version(), Log: a.logger(), RedactParams: a.redactParams()}
	if judging {
		o.Judge = a.v.GetString("judge")
		if o.JudgeConfig, err = a.judgeConfig(); err == nil && !a.v.GetBool("no-cache") {
			o.Cache, err = a.cacheStore()
		}
		if o.Concurrency = a.v.GetInt("concurrency"); err == nil && o.Concurrency < 1 {
			err = fmt.Errorf("--concurrency %d: ask at least one question at a time", o.Concurrency)
		}
		if err == nil {
			err = a.budget(&o)
		}
		if err != nil {
			closeHost()
			return o, nil, err
		}
		if f, ok := a.stderr.(*os.File); ok && a.v.GetBool("progress") && isatty.IsTerminal(f.Fd()) {
			o.Progress = func() (func(ask.Progress), func()) {
				bar := progress.New(f, 100*time.Millisecond)
				return bar.Update, bar.Finish
			}
		}
	}
	return o, closeHost, nil
}

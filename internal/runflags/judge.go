package runflags

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/progress"
)

// AddJudge declares the flags that say who answers a rubric's questions
// and how. A command that takes several judges (calibrate) declares
// --judge itself, repeatable, and sets "judge" to each in turn.
func AddJudge(cmd *cobra.Command) {
	f := cmd.Flags()
	if f.Lookup("judge") == nil {
		f.String("judge", "", "judge plugin, a name or the path of an executable, with its own settings if need be (openai:model=M,base_url=URL,temperature=0), or a panel (panel:A,B) (default: heuristic, for rubrics that ask questions)")
	}
	f.String("model", "", "the model the judge must answer with; answers from any other model are refused")
	f.String("base-url", "", "the API's base URL, for the openai and anthropic judges (vLLM, llama.cpp, Ollama, a proxy)")
	f.String("answers", "", "the answers file of the replay judge (JSONL: kind, subject, answer)")
	f.StringArray("judge-option", nil, "judge option KEY=VALUE, such as temperature=0 or seed=7 (repeatable; RUBRIC_JUDGE_OPTION=temperature=0,seed=7 gives two)")
	f.String("record", "", "write every answer of the run to this JSONL file, which the replay judge reads")
	f.Int("concurrency", 0, fmt.Sprintf("questions asked at once (default %d, or %d with a judge that answers on this machine, such as heuristic)", ask.DefaultConcurrency, ask.LocalConcurrency))
	f.Bool("no-cache", false, "neither read nor write the answer cache")
	f.String("cache-dir", "", "the answer cache (default: rubric under the user cache directory)")
	f.Bool("progress", true, "show a progress bar on standard error when it is a terminal")
	f.Float64("max-cost", 0, "the most the run may spend on judge calls, in US dollars above 0: no call that could pass it is started (needs the judge option max_tokens and the model's price; leave it out for no bound)")
}

// AddBatch declares the flags of the commands that may ask in batches
// (score and calibrate).
func AddBatch(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Bool("batch", false, "ask through the provider's batch API (openai, anthropic): at the batch price, answers in minutes to hours; a stopped run's batch is collected by the next")
	f.Duration("batch-poll", ask.DefaultPoll, "with --batch, the wait between two looks at a running batch")
}

// Judging sets what the judge flags in v ask of o: the judge and its
// configuration, the answer cache, how many questions at once, the
// budget, and a progress bar on stderr when it is a terminal.
func Judging(v *viper.Viper, o *run.Options, stderr io.Writer) error {
	var err error
	if o.Judge, o.JudgeConfig, err = JudgeOf(v); err != nil {
		return err
	}
	if !v.GetBool("no-cache") {
		if o.Cache, err = cache.Open(v.GetString("cache-dir")); err != nil {
			return err
		}
	}
	// Unset, the judge's kind decides (run.Options.Concurrency).
	if o.Concurrency = v.GetInt("concurrency"); v.IsSet("concurrency") && o.Concurrency < 1 {
		return fmt.Errorf("--concurrency %d: ask at least one question at a time", o.Concurrency)
	}
	// The config's price table and --max-cost.
	prices, err := ask.DecodePrices(v.Get("prices"))
	if err != nil {
		return err
	}
	if err := o.SetBudget(prices, v.GetFloat64("max-cost"), v.IsSet("max-cost")); err != nil {
		return err
	}
	if f, ok := stderr.(*os.File); ok && v.GetBool("progress") && isatty.IsTerminal(f.Fd()) {
		o.Progress = func() (func(ask.Progress), func()) {
			bar := progress.New(f, 100*time.Millisecond, func() int { return text.TerminalWidth(f) })
			return bar.Update, bar.Finish
		}
	}
	return nil
}

// JudgeOf is the judge v names (--judge, "" for the default) and what it
// is configured with (--model, --judge-option, --base-url, --answers),
// refused when the judge's own settings name another model than --model
// pins.
func JudgeOf(v *viper.Viper) (string, judge.Config, error) {
	ref := v.GetString("judge")
	cfg, err := judge.NewConfig(v.GetString("model"), localconfig.List(v, "judge-option"), v.GetString("base-url"), v.GetString("answers"))
	if err != nil {
		return "", cfg, err
	}
	return ref, cfg, checkPin(ref, cfg.Model)
}

// checkPin refuses a judge reference (or a panel member's) whose own
// settings name another model than the one --model (or model: in the
// config) pins: the pin would otherwise be overridden by the setting,
// and the run would ask, and report, a model nobody pinned.
func checkPin(ref, pin string) error {
	if pin == "" || ref == "" {
		return nil
	}
	refs, ok := panel.Members(ref)
	if !ok {
		refs = []string{ref}
	}
	for _, r := range refs {
		_, settings := judge.SplitRef(r)
		// The settings as a judge reads them, over no model: what they
		// set the model to, if anything. A malformed setting is refused
		// where the judge starts, with its own message.
		c, err := judge.Config{}.With(settings)
		if err == nil && c.Model != "" && c.Model != pin {
			return fmt.Errorf("--judge %s names model %s, but --model pins %s: give one", r, c.Model, pin)
		}
	}
	return nil
}

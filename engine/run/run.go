// Package run is one scan session: the plugins it starts, the judge it
// starts once and pins, the answer cache, the limits, the log and the
// progress display, and Scan, which turns a target and a rubric into a
// report or a failure record. Every command that scores (score, gate,
// calibrate, rescore) goes through a Session; the command line only turns
// flags into Options and renders what comes back.
package run

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/collector"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// DefaultJudge answers a rubric's questions when no judge is named: the
// offline heuristic, which needs no key and no network.
const DefaultJudge = "heuristic"

// judgedGCPercent is the collector's target while a judged rubric scores
// (unless GOGC sets one, or the target is higher already): every tool's
// definition and checks stay live until its answers are in, and at the
// default target of 100 each collection marks them all again. At 5,000
// TDQS tools 200 took a fifth off the run's CPU for a sixth more peak
// memory; 400 saved no more there and doubled Gradable's peak at 100
// tools (bench/README.md).
const judgedGCPercent = 200

// Plugins starts the judges and transports a session uses: the plugin
// host does (plugins/host.Launcher), each in a process of its own.
type Plugins interface {
	// Judge starts the judge plugin ref names (a name or the path of an
	// executable) and configures it with cfg.
	Judge(ctx context.Context, ref string, cfg judge.Config) (Judge, error)
	// Transport starts the transport plugin named name.
	Transport(ctx context.Context, name string) (Transport, error)
}

// JudgeFinder is a Plugins that can tell whether the judge plugin a
// reference names exists without starting it; a Plugins that is not one
// is asked only when the judge starts.
type JudgeFinder interface {
	// FindJudge returns the error Judge would give for a plugin that
	// does not exist, without starting it.
	FindJudge(ref string) error
}

// JudgeOptionChecker is a Plugins that can check the options of the
// judge plugin a name finds without starting it, with the error its
// Configure would give (judge.OptionChecker): nil for a judge it cannot
// tell, which checks them itself when it starts.
type JudgeOptionChecker interface {
	CheckJudgeOptions(name string, options map[string]string) error
}

// Judge is a started, configured judge.
type Judge = judge.Plugin

// Transport is a started transport.
type Transport = transport.Plugin

// Options configure a Session.
type Options struct {
	Plugins Plugins
	// Judge is the judge's ref; empty means DefaultJudge for a rubric that
	// asks questions and none for one that does not.
	Judge string
	// JudgeConfig is what the judge is configured with; a model set here
	// is pinned: a judge that configures another is refused, and so is an
	// answer from another.
	JudgeConfig judge.Config
	// Unpinned starts the judge without refusing another model than
	// JudgeConfig's, to read its identity only.
	Unpinned bool
	// Cache holds the judges' answers; nil keeps none.
	Cache *cache.Store
	// Concurrency bounds the questions in flight; 0 means
	// ask.LocalConcurrency for a judge that answers on this machine
	// (judge.CapabilityLocal) and ask.DefaultConcurrency for any other.
	Concurrency int
	// Workers bounds the tools scored in parallel; 0 means one per CPU.
	Workers int
	// Version is rubric's version, recorded in reports.
	Version string
	// RedactParams are query parameter names whose values are redacted
	// from every URL a report or a failure record holds, beside the
	// built-in ones (token, key, secret, ...: see internal/redact).
	RedactParams []string
	// ConfigFile, when set, is the client configuration the session's
	// servers are read from (--config-file): the advice of an error that
	// reading one gives then points at the server's entry in that file,
	// not at the target flags a configuration's servers do not take.
	ConfigFile string
	// Secrets are values rubric put on a server's command line or in its
	// URL from the environment (a client configuration's ${TOKEN}): the
	// server needs them, but no report, record or message may show them.
	// Session.Hide adds more.
	Secrets []string
	// Log receives the session's messages; nil discards them.
	Log hclog.Logger
	// Prices is the price table the run's cost is counted by; nil means
	// ask.DefaultPrices.
	Prices *ask.Prices
	// MaxCost, when above 0, is the most the run may spend on judge
	// calls, in US dollars (see ask.Budget); MaxOutput bounds each call's
	// output tokens for it.
	MaxCost   float64
	MaxOutput int
	// Batch asks the judge through its provider's batch API (see
	// ask.Batching), at the batch price; BatchPoll is the wait between
	// two looks at a running batch (0: ask.DefaultPoll).
	Batch     bool
	BatchPoll time.Duration
	// RefusePendingBatch, in a session without Batch, refuses to ask the
	// questions of a batch a stopped --batch run left running in the
	// cache again, at full price, instead of warning: for the commands
	// that have --batch to collect it with (score, calibrate).
	RefusePendingBatch bool
	// JudgeLimit, when set, is the rate limit the calls to a judge of the
	// given identity wait on (a scan's --judge-rate, shared by its
	// workers); nil, or a nil limit, leaves the calls unpaced.
	JudgeLimit func(judge.Identity) ask.Limit
	// Progress, when set, is called when questions are about to be asked,
	// and returns the function to call after every answer and the one to
	// call once they are done (before anything is printed).
	Progress func() (update func(ask.Progress), done func())
}

// Session is one run of rubric: it starts its judge at most once and
// ends it on Close. A Session is used by one goroutine.
type Session struct {
	opt   Options
	judge Judge
	// pinned is the model the started judge's answers must come from:
	// the model its reference or JudgeConfig names; empty for a panel,
	// whose members are each pinned when they start.
	pinned string
	block  *report.Judge
	// asker is the latest asker, so that an interrupted run can say
	// whether answers were kept.
	asker *ask.Asker
	// done ends the progress display of the latest asker.
	done func()
	// early is the transport being started ahead of its use (see
	// startEarly), nil when none is.
	early *earlyTransport
	// ledger is what the session's askers spent under --max-cost: the
	// budget is the command's, however many askers it makes (a
	// calibration's runs, the servers of one score).
	ledger *ask.Ledger
	// spentBefore is what the askers before the latest spent, and
	// priced whether any of them was priced (see Spent).
	spentBefore float64
	priced      bool
}

// earlyTransport is a transport plugin started in the background, so
// that its process starts while the session does other work (starting
// the judge); done is closed once it has started or failed to.
type earlyTransport struct {
	name string
	done chan struct{}
	tr   Transport
	err  error
}

// New returns a session; call Close when done.
func New(o Options) *Session {
	if o.Log == nil {
		o.Log = hclog.NewNullLogger()
	}
	return &Session{opt: o, done: func() {}, ledger: &ask.Ledger{}}
}

// ShareBudget makes s spend from the --max-cost budget of o, so that two
// sessions of one command (the two judges of a calibration) hold one
// budget between them. Call it before either asks anything.
func (s *Session) ShareBudget(o *Session) {
	s.ledger = o.ledger
}

// Cache returns the session's answer cache; nil when it keeps none
// (--no-cache).
func (s *Session) Cache() *cache.Store {
	return s.opt.Cache
}

// Close ends the judge, if one was started, and a transport started
// early but not used.
func (s *Session) Close() {
	s.done()
	if e := s.early; e != nil {
		s.early = nil
		<-e.done
		if e.tr != nil {
			e.tr.Close()
		}
	}
	if s.judge != nil {
		s.judge.Close()
		s.judge = nil
	}
}

// Kept reports whether answers received by this session are in the cache,
// so that a run stopped half way can say that a new one asks only the
// rest.
func (s *Session) Kept() bool {
	return s.asker != nil && s.asker.Cache != nil && s.asker.Stats().Questions > 0
}

// judgeRef is the judge a rubric is scored with: none when the rubric
// asks no question (a judge named for it would have no part in the score,
// and one that cannot start as given, for want of a model or a key,
// would only fail it), else the named one, else the default.
func (s *Session) judgeRef(r *rubric.Rubric) string {
	switch {
	case len(r.Questions) == 0:
		return ""
	case s.opt.Judge != "":
		return s.opt.Judge
	}
	return DefaultJudge
}

// UnusedJudge says, when a judge was named and r asks it nothing, that it
// is not started and that a rubric asking questions is what starts one;
// "" otherwise. It names no way to choose a rubric, which differs by
// front-end: front-ends show it where the user named the judge, and may
// add theirs. The judge is checked as CheckJudge would check it, so that a
// name that is not there is still refused.
func (s *Session) UnusedJudge(r *rubric.Rubric) (string, error) {
	if s.opt.Judge == "" || len(r.Questions) > 0 {
		return "", nil
	}
	if err := s.checkRef(s.opt.Judge); err != nil {
		return "", err
	}
	if err := s.CheckOptions(r); err != nil {
		return "", err
	}
	return fmt.Sprintf("the judge %s is not started: the rubric %s asks no question; to use the judge, choose a rubric that asks questions", termtext.Printable(s.opt.Judge), r.Name), nil
}

// CheckNamedJudge checks the judge the session was given, as CheckJudge
// would, whether or not a rubric asks it anything: a name nothing
// answers to (a misspelt judge, a plugin path with no file) is refused
// even where no question would start it. nil when no judge was given.
func (s *Session) CheckNamedJudge() error {
	if s.opt.Judge == "" {
		return nil
	}
	return s.checkRef(s.opt.Judge)
}

// CheckOptions refuses, when r asks no question and so starts no judge,
// an option the session's judge would refuse (a misspelt name, from
// --judge-option or the judge's reference), as far as the plugins can
// tell without starting it (JudgeOptionChecker): a typo is refused
// whether or not the rubric needs the judge. A rubric that asks questions
// starts the judge, which checks its options itself.
func (s *Session) CheckOptions(r *rubric.Rubric) error {
	c, ok := s.opt.Plugins.(JudgeOptionChecker)
	if len(r.Questions) > 0 || !ok {
		return nil
	}
	refs, isPanel, err := members(cmp.Or(s.opt.Judge, DefaultJudge))
	if err != nil {
		return nil // the reference is refused where it is checked
	}
	for _, m := range refs {
		name, settings := judge.SplitRef(m)
		cfg, err := s.opt.JudgeConfig.With(settings)
		if err != nil {
			continue // as above
		}
		if err := c.CheckJudgeOptions(name, cfg.Options); err != nil {
			err = fmt.Errorf("the judge %q would refuse its configuration: %w", name, err)
			if isPanel {
				return fmt.Errorf("panel member %s: %w", m, err)
			}
			return err
		}
	}
	return nil
}

// StartJudge starts and configures the session's judge, once; nil when
// the rubric asks no question. A judge that configured
// another model than the pinned one is refused here, before anything is
// asked.
func (s *Session) StartJudge(ctx context.Context, r *rubric.Rubric) (Judge, error) {
	ref := s.judgeRef(r)
	switch {
	case ref == "":
		return nil, nil // even when another rubric of the session started one
	case s.judge != nil:
		return s.judge, nil
	}
	j, pinned, err := s.startJudge(ctx, ref, s.opt.JudgeConfig)
	if err != nil {
		return nil, err
	}
	s.judge, s.pinned = j, pinned
	s.block = &report.Judge{Identity: j.Identity(), SHA256: j.SHA256()}
	return j, nil
}

// SetJudge makes ref, configured with cfg, the judge the session starts:
// the gate sets the judge the base's config file chooses once both sides
// were read. It is refused once a judge has started, whose answers would
// otherwise be mixed with the new one's.
func (s *Session) SetJudge(ref string, cfg judge.Config) error {
	if s.judge != nil {
		return fmt.Errorf("the judge %s has started already: it cannot become %s", termtext.Printable(s.opt.Judge), termtext.Printable(ref))
	}
	s.opt.Judge, s.opt.JudgeConfig = ref, cfg
	return nil
}

// CheckJudge tells, without starting it or asking anything, whether the
// judge r is scored with would start as far as can be known: its
// reference, each panel member's settings and, when the plugins can tell
// (JudgeFinder), that the plugin exists. It returns the error
// StartJudge would give for them; nil when r needs no judge.
func (s *Session) CheckJudge(r *rubric.Rubric) error {
	ref := s.judgeRef(r)
	if ref == "" || s.judge != nil {
		return nil
	}
	return s.checkRef(ref)
}

// checkRef is CheckJudge of the judge ref names.
func (s *Session) checkRef(ref string) error {
	refs, isPanel, err := members(ref)
	if err != nil {
		return err
	}
	for _, m := range refs {
		if err := s.checkOne(m); err != nil {
			if isPanel {
				return fmt.Errorf("panel member %s: %w", m, err)
			}
			return err
		}
	}
	return nil
}

// members are the judge references ref names: a panel's members
// ("panel:A,B"), or ref alone; isPanel says which. A panel of fewer than
// two is refused.
func members(ref string) (refs []string, isPanel bool, err error) {
	refs, isPanel = panel.Members(ref)
	if !isPanel {
		return []string{ref}, false, nil
	}
	if len(refs) < 2 {
		return nil, true, fmt.Errorf("--judge %s names %s: a panel needs at least two, as panel:heuristic,openai", ref, report.Plural(len(refs), "judge"))
	}
	return refs, true, nil
}

// checkOne is CheckJudge for one judge reference, not a panel.
func (s *Session) checkOne(ref string) error {
	name, settings := judge.SplitRef(ref)
	if _, err := s.opt.JudgeConfig.With(settings); err != nil {
		return err
	}
	if f, ok := s.opt.Plugins.(JudgeFinder); ok {
		return f.FindJudge(name)
	}
	return nil
}

// startJudge starts the judge ref names: a plugin, or a panel
// ("panel:A,B,C") whose members each start with cfg and the settings
// their own reference gives (judge.SplitRef). It returns the model the
// answers are pinned to. A judge, or a member, that configured another
// model than the one asked of it is refused here, before anything is
// asked.
func (s *Session) startJudge(ctx context.Context, ref string, cfg judge.Config) (Judge, string, error) {
	refs, isPanel, err := members(ref)
	if err != nil {
		return nil, "", err
	}
	if !isPanel {
		j, err := s.startOne(ctx, ref, cfg)
		if err != nil {
			return nil, "", err
		}
		_, settings := judge.SplitRef(ref)
		c, _ := cfg.With(settings) // startOne has read them without error
		return j, c.Model, nil
	}
	var started []judge.Plugin
	for _, r := range refs {
		j, err := s.startOne(ctx, r, cfg)
		if err != nil {
			for _, m := range started {
				m.Close()
			}
			return nil, "", fmt.Errorf("panel member %s: %w", r, err)
		}
		started = append(started, j)
	}
	p, err := panel.Start(started...)
	if err != nil {
		return nil, "", err
	}
	if s.opt.Cache != nil {
		// Each member's answers are cached as the member's own too.
		p.Memo = ask.MemberMemo{Cache: s.opt.Cache}
	}
	return p, "", nil
}

// startOne starts the one judge ref names, with cfg and the settings
// ref gives over it, and checks the model it configured.
func (s *Session) startOne(ctx context.Context, ref string, cfg judge.Config) (judge.Plugin, error) {
	name, settings := judge.SplitRef(ref)
	_, answersFlag := cfg.Options["answers"]
	cfg, err := cfg.With(settings)
	if err != nil {
		return nil, err
	}
	j, err := s.opt.Plugins.Judge(ctx, name, cfg)
	if err != nil {
		return nil, answersRefused(name, settings, answersFlag, err, func() error {
			return s.refusalOf(ctx, "replay", cfg)
		})
	}
	if id := j.Identity(); !s.opt.Unpinned && cfg.Model != "" && !judge.SameModel(cfg.Model, id.Model) {
		j.Close()
		return nil, fmt.Errorf("the judge %q configured model %q, but the run pins model %q: refusing to ask another model", j.Name(), id.Model, cfg.Model)
	}
	return j, nil
}

// answersRefused words a judge's refusal of the answers file --answers
// gave it (answersFlag), when its own settings gave none: --answers is
// the replay judge's, and a user who gave it without --judge replay
// meant that judge, not the one that refused an option they never set.
// The judge's own words are left out, since they advise another judge
// that takes options rather than the replay judge; asReplay says what
// the replay judge refuses of the same configuration (nil when it
// starts), which is added so that the hint's next step does not fail on
// a second mistake (an option misspelt, an answers file not there).
func answersRefused(name string, settings []string, answersFlag bool, err error, asReplay func() error) error {
	if !answersFlag || name == "replay" || !strings.Contains(err.Error(), `"answers"`) {
		return err
	}
	for _, kv := range settings {
		if k, _, _ := strings.Cut(kv, "="); k == "answers" {
			return err
		}
	}
	msg := fmt.Sprintf("--answers FILE is read by the replay judge, and the judge here is %q, which reads no answers file: add --judge replay to score with the answers in FILE, or leave --answers out", name)
	if other := asReplay(); other != nil {
		msg += "; with --judge replay, " + other.Error()
	}
	return &advised{err: err, msg: msg}
}

// refusalOf starts the judge name with cfg and stops it again: nil when
// it starts, else its refusal.
func (s *Session) refusalOf(ctx context.Context, name string, cfg judge.Config) error {
	j, err := s.opt.Plugins.Judge(ctx, name, cfg)
	if err != nil {
		return err
	}
	j.Close()
	return nil
}

// JudgeBlock is the report's record of who answers r's questions: the
// judge's identity and digest, with the rubric's judge labels. It starts
// the judge if need be; nil when there is none.
func (s *Session) JudgeBlock(ctx context.Context, r *rubric.Rubric) (*report.Judge, error) {
	j, err := s.StartJudge(ctx, r)
	if err != nil || j == nil {
		return nil, err
	}
	b := *s.block
	b.Labels = r.JudgeLabels
	return &b, nil
}

// prices is the session's price table.
func (s *Session) prices() *ask.Prices {
	if s.opt.Prices != nil {
		return s.opt.Prices
	}
	return &ask.DefaultPrices
}

// price gives a the price of the model it asks, and the budget.
func (s *Session) price(a *ask.Asker) error {
	model := a.Model
	if model == "" {
		model = a.Identity.Model
	}
	p, ok := s.prices().Lookup(model)
	calls, unpriced := 1, error(nil)
	if members, isPanel := panel.MemberIdentities(a.Identity); isPanel {
		p, calls, unpriced = s.panelPrice(members)
		ok = unpriced == nil
	} else if !ok {
		unpriced = fmt.Errorf("--max-cost needs the price of model %q, which the price table (%s) does not list: add it under prices.models in the config", model, s.prices().Date)
	}
	if a.Batch != nil {
		p = p.Batched()
	}
	if ok {
		a.Price = &p
	}
	if s.opt.MaxCost <= 0 || a.Identity.Heuristic {
		// A judge that answers by rules asks no model and costs
		// nothing: any budget holds it.
		return nil
	}
	if unpriced != nil {
		return unpriced
	}
	if s.opt.MaxOutput <= 0 {
		return fmt.Errorf("--max-cost needs a bound on each answer's length: set the judge option max_tokens (--judge-option max_tokens=2048)")
	}
	a.Budget = &ask.Budget{Limit: s.opt.MaxCost, Price: p, MaxOutput: s.opt.MaxOutput, Calls: calls, Ledger: s.ledger}
	return nil
}

// panelPrice is the price of a panel's answers: a panel asks every
// member and reports their tokens together, so it is priced when the
// members that ask a model (all but heuristic ones, which cost nothing)
// share one price; calls is how many of them a question asks. A member
// the price table does not list, or members priced differently, is an
// error for --max-cost, naming them.
func (s *Session) panelPrice(members []judge.Identity) (p ask.Price, calls int, err error) {
	first := ""
	for i, m := range members {
		if m.Heuristic {
			continue
		}
		mp, ok := s.prices().Lookup(m.Model)
		if !ok {
			return ask.Price{}, 0, fmt.Errorf("--max-cost needs the price of model %q (panel member %d), which the price table (%s) does not list: add it under prices.models in the config", m.Model, i+1, s.prices().Date)
		}
		if calls > 0 && mp != p {
			return ask.Price{}, 0, fmt.Errorf("--max-cost cannot bound a panel whose members are priced differently (%s and %s): the panel reports its members' tokens together, so its cost is known only when they share one price; give members of one price, or leave --max-cost out", first, m.Model)
		}
		if calls == 0 {
			p, first = mp, m.Model
		}
		calls++
	}
	if calls == 0 {
		return ask.Price{}, 0, errors.New("the panel asks no model: its members answer by rules")
	}
	return p, calls, nil
}

// Cost is what a's calls cost, as a report states it; nil when the
// model's price is unknown.
func (s *Session) Cost(a *ask.Asker) *report.Cost {
	if a == nil || (a.Price == nil && a.Budget == nil) {
		return nil
	}
	t := s.prices()
	c := &report.Cost{USD: a.Stats().CostUSD, Prices: t.Date + ", " + t.Source}
	if a.Batch != nil {
		c.Prices += ", batch price"
	}
	return c
}

// batchEvent logs a step of a batch: a batch runs for minutes or hours,
// so its id and what it is waiting for are worth saying.
func (s *Session) batchEvent(e ask.BatchEvent) {
	switch e.Step {
	case "submitted", "found", "resumed", "collected":
		s.opt.Log.Info("batch "+e.Step, "id", e.ID, "questions", e.Questions)
	case "pending":
		s.opt.Log.Info("a batch that may be the one a stopped run submitted has not ended; waiting for it to tell", "questions", e.Questions)
	case "foreign":
		s.opt.Log.Warn("the batch found is not the one a stopped run submitted (its results carry other ids); its answers are not taken, and the questions go out anew", "id", e.ID, "questions", e.Questions)
	case "polled":
		s.opt.Log.Debug("batch polled", "id", e.ID, "state", e.Status.State, "done", e.Status.Done, "total", e.Status.Total)
	case "stopped":
		s.opt.Log.Warn("batch left running; run the same command again to collect it", "id", e.ID, "questions", e.Questions)
	}
}

// pendingBatch says that the questions of a batch a stopped --batch run
// left running (paid for, and collected by the same command with
// --batch) are about to be asked again at full price, or refuses to ask
// them (Options.RefusePendingBatch).
func (s *Session) pendingBatch(p ask.PendingBatch) error {
	if !s.opt.RefusePendingBatch {
		s.opt.Log.Warn("a batch a stopped --batch run left running holds questions asked again here, at full price; rubric score --batch with the same flags collects it", "id", p.ID, "questions", p.Questions, "asked_again", p.Asked)
		return nil
	}
	n := fmt.Sprintf("%d questions", p.Asked)
	if p.Asked == 1 {
		n = "a question"
	}
	return fmt.Errorf("batch %s, which a stopped --batch run left running, holds %s this run would ask again at full price: run the same command with --batch to collect it (it is paid for), or add --no-cache to ask again anyway", p.ID, n)
}

// Asker starts the judge if need be and returns an asker of r's
// questions through the session's cache, with the progress display on.
// fresh asks the judge even for answers the cache holds (and caches the
// new ones).
func (s *Session) Asker(ctx context.Context, r *rubric.Rubric, fresh bool) (*ask.Asker, error) {
	j, err := s.StartJudge(ctx, r)
	if err != nil {
		return nil, err
	}
	if j == nil {
		return nil, fmt.Errorf("rubric %s asks a judge questions: choose a judge", r.Name)
	}
	if err := ask.ResolvePrompts(ctx, r, s.opt.Cache); err != nil {
		return nil, err
	}
	var paced ask.Judge = j
	if s.opt.JudgeLimit != nil {
		paced = ask.Paced(j, s.opt.JudgeLimit(j.Identity()))
	}
	a := &ask.Asker{
		Judge: paced, Identity: j.Identity(), Model: s.pinned, Rubric: r, Cache: s.opt.Cache,
		Concurrency: s.concurrency(j), Fresh: fresh, CountTokens: r.ReadsUsage(),
		StructuredOnly: judge.ReadsStructuredInputOnly(j),
	}
	if s.opt.Batch {
		b, ok := judge.AsBatcher(j)
		if _, isPanel := panel.MemberIdentities(j.Identity()); isPanel && !ok {
			return nil, fmt.Errorf("--batch: a judge panel does not answer in batches (it asks each member a question at a time and combines their answers); leave --batch out to ask the panel, or give --batch with one judge, such as openai or anthropic")
		}
		if !ok {
			return nil, fmt.Errorf("--batch: the judge %q does not answer in batches (its plugin does not advertise the capability %q); use a judge that does, such as openai or anthropic, or leave --batch out", j.Name(), judge.CapabilityBatch)
		}
		a.Batch = &ask.Batching{Judge: b, Poll: s.opt.BatchPoll, OnEvent: s.batchEvent}
	} else {
		a.OnPendingBatch = s.pendingBatch
	}
	if err := s.price(a); err != nil {
		return nil, err
	}
	s.done()
	if s.opt.Progress != nil {
		a.OnProgress, s.done = s.opt.Progress()
	} else {
		s.done = func() {}
	}
	s.adopt(a)
	return a, nil
}

// concurrency is how many of its questions the session keeps in flight
// with j: what the run asked for, else ask.LocalConcurrency for a judge
// that answers on this machine and ask.DefaultConcurrency for any other.
func (s *Session) concurrency(j any) int {
	switch {
	case s.opt.Concurrency > 0:
		return s.opt.Concurrency
	case judge.RunsLocally(j):
		return ask.LocalConcurrency
	}
	return ask.DefaultConcurrency
}

// adopt makes a the session's latest asker, counting what the one before
// spent (see Spent).
func (s *Session) adopt(a *ask.Asker) {
	if s.asker != nil {
		s.spentBefore += s.asker.Stats().CostUSD
		s.priced = s.priced || s.Cost(s.asker) != nil
	}
	s.asker = a
}

// Spent is what every judge call of the session cost, as the reports
// state it (a calibration's runs together), and the price table's date
// and source; nil when no call was priced.
func (s *Session) Spent() *report.Cost {
	usd, priced := s.spentBefore, s.priced
	c := s.Cost(s.asker)
	if c != nil {
		usd += s.asker.Stats().CostUSD
		priced = true
	}
	if !priced {
		return nil
	}
	t := s.prices()
	out := &report.Cost{USD: usd, Prices: t.Date + ", " + t.Source}
	if c != nil {
		out.Prices = c.Prices
	}
	return out
}

// EndProgress clears the progress display, if one is shown; calling it
// again does nothing.
func (s *Session) EndProgress() {
	s.done()
	s.done = func() {}
}

// Export reads the surface of target with the transport named name,
// started for this alone. A target written SCHEME://... must be of a
// scheme the transport reads.
func (s *Session) Export(ctx context.Context, name string, t transport.Target) (*surface.Surface, error) {
	surf, _, err := s.export(ctx, name, t)
	return surf, err
}

// startEarly starts the transport named name in the background, for
// the session's next export: a plugin is a process of its own, and
// starting one is most of what reading a small surface takes, so it
// starts while the judge does. Another transport started early and not
// used yet is kept.
func (s *Session) startEarly(ctx context.Context, name string) {
	if s.early != nil {
		return
	}
	e := &earlyTransport{name: name, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.tr, e.err = s.opt.Plugins.Transport(ctx, name)
	}()
	s.early = e
}

// transport is the transport named name, started: the one started early
// if it is that one, else one started now.
func (s *Session) transport(ctx context.Context, name string) (Transport, error) {
	if e := s.early; e != nil && e.name == name {
		s.early = nil
		<-e.done
		return e.tr, e.err
	}
	return s.opt.Plugins.Transport(ctx, name)
}

// export is Export that also says what the transport is.
func (s *Session) export(ctx context.Context, name string, t transport.Target) (*surface.Surface, transport.Info, error) {
	tr, err := s.transport(ctx, name)
	if err != nil {
		return nil, transport.Info{}, err
	}
	defer tr.Close()
	info, err := tr.Describe(ctx)
	if err != nil {
		return nil, info, err
	}
	if sc := Scheme(t.Location); sc != "" && !handles(info, sc) {
		return nil, info, fmt.Errorf("the %s transport does not read %s:// targets (%s)", name, sc, readsWhat(info))
	}
	surf, err := tr.Export(ctx, t)
	if err != nil {
		if s.opt.ConfigFile != "" {
			err = configAdvice(err, s.opt.ConfigFile)
		}
		return nil, info, redact.Error(err, s.opt.Secrets)
	}
	if s.opt.ConfigFile != "" {
		// A warning's advice, as an error's, names no flag the
		// configuration's servers do not take.
		for i, w := range surf.Warnings {
			surf.Warnings[i] = configAdvised(w, s.opt.ConfigFile)
		}
	}
	redactSurface(surf, s.opt.RedactParams, s.opt.Secrets)
	return surf, info, nil
}

// Hide adds values no report, record or message of the session may
// show (see Options.Secrets).
func (s *Session) Hide(values ...string) {
	if len(values) == 0 {
		return
	}
	// A copy: sessions made from one Options share its backing array.
	secrets := slices.Clone(s.opt.Secrets)
	for _, v := range values {
		if v != "" {
			secrets = append(secrets, v)
		}
	}
	s.opt.Secrets = redact.LongestFirst(secrets)
}

// recorded is the source as a report records it: redacted with the
// extra parameter names, and without the session's secrets.
func (s *Session) recorded(src Source) string {
	return redact.Values(src.recorded(s.opt.RedactParams), s.opt.Secrets)
}

// origin is where a report says its target was read, for the writers
// that point into files.
func origin(t transport.Target, info transport.Info) *report.Origin {
	switch info.Locality.Of() {
	case transport.Path:
		o := &report.Origin{Kind: report.OriginFile}
		if p := info.PathOf(t.Location); p != "-" {
			o.Path = p
		}
		return o
	case transport.Command:
		return &report.Origin{Kind: report.OriginCommand, Dir: t.Dir, Paths: localPaths(t)}
	}
	return &report.Origin{Kind: report.OriginEndpoint}
}

// readsWhat says what a transport that refused a target's scheme reads:
// its schemes, or for one that reads none, what its locality names.
func readsWhat(info transport.Info) string {
	if len(info.Schemes) > 0 {
		return "it reads " + strings.Join(info.Schemes, ":// and ") + ":// targets"
	}
	switch info.Locality.Of() {
	case transport.Command:
		return "it starts a command, given after --"
	case transport.Path:
		return "it reads a file"
	}
	return "it names no scheme it reads"
}

// maxOriginPaths bounds the paths an origin records of a command.
const maxOriginPaths = 8

// localPaths are the program and arguments of a command that name a
// file or folder below the directory it starts in, as given: relative,
// not climbing out of it, not a flag. No absolute path is kept, so that
// a report does not carry the layout of the machine it was made on.
func localPaths(t transport.Target) []string {
	var out []string
	for _, a := range append([]string{t.Location}, t.Args...) {
		if a == "" || strings.HasPrefix(a, "-") || filepath.IsAbs(a) || !filepath.IsLocal(filepath.Clean(a)) || len(out) == maxOriginPaths {
			continue
		}
		if _, err := os.Stat(filepath.Join(t.Dir, a)); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// Describe starts the transport named name to ask what it is, and ends
// it.
func (s *Session) Describe(ctx context.Context, name string) (transport.Info, error) {
	tr, err := s.opt.Plugins.Transport(ctx, name)
	if err != nil {
		return transport.Info{}, err
	}
	defer tr.Close()
	return tr.Describe(ctx)
}

func handles(info transport.Info, scheme string) bool {
	for _, s := range info.Schemes {
		if s == scheme {
			return true
		}
	}
	return false
}

// Scheme is the scheme of a target written as SCHEME://..., or "".
func Scheme(location string) string {
	if !strings.Contains(location, "://") {
		return ""
	}
	if u, err := url.Parse(location); err == nil {
		return u.Scheme
	}
	return ""
}

// TransportOf is the transport a location is read with when none is
// named: http for an http(s):// URL, SCHEME for SCHEME://... (an
// installed transport's), file for anything else. A one-letter scheme is
// a Windows drive, so a file.
func TransportOf(location string) string {
	switch s := Scheme(location); {
	case s == "http" || s == "https":
		return "http"
	case len(s) > 1:
		return s
	}
	return "file"
}

// Redacted is the target as a report records it: the credentials of
// every URL in it (a userinfo, and the values of query parameters whose
// names say they hold one, with the extra names given) are replaced by
// redact.Marker; header and environment values are never recorded.
func Redacted(t transport.Target, extra ...string) string {
	return redact.Text(t.String(), extra...)
}

// redactSurface takes credentials out of what a transport says about
// where it read a surface: its source, its warnings and the server's
// string values (a redirect's URL). None of them enter the hash.
func redactSurface(s *surface.Surface, extra, secrets []string) {
	hide := func(str string) string { return redact.Values(redact.Text(str, extra...), secrets) }
	s.Source = hide(s.Source)
	for i, w := range s.Warnings {
		s.Warnings[i] = hide(w)
	}
	for k, v := range s.Server {
		switch v := v.(type) {
		case string:
			s.Server[k] = hide(v)
		case []any:
			// A command's argv, which may carry a token.
			for i, e := range v {
				if str, ok := e.(string); ok {
					v[i] = hide(str)
				}
			}
		}
	}
}

// Source is what a scan scores: a target read with a transport, or a
// surface already read.
type Source struct {
	// Transport names the transport that reads Target.
	Transport string
	Target    transport.Target
	// Surface, when set, is scored as it is, and Name is what the report
	// records as its target.
	Surface *surface.Surface
	Name    string
}

// recorded is the source as a report records it, redacted with the
// extra parameter names.
func (src Source) recorded(extra []string) string {
	if src.Surface != nil {
		return redact.Text(src.Name, extra...)
	}
	return Redacted(src.Target, extra...)
}

// ScanOptions tune one scan.
type ScanOptions struct {
	// Fresh asks the judge afresh instead of reading the cache.
	Fresh bool
	// Salt, when set, caches every answer of the scan under a key of its
	// own (cache.SaltedKey): the cache then holds for it only what a scan
	// of the same salt was answered, as a calibration's runs are.
	Salt string
	// Answers, when set, is an earlier report whose recorded answers are
	// the observations: no judge is started and none is asked.
	Answers *report.Report
	// Record, when set, is where every answer of the scan is written as
	// an answers file that the replay judge reads.
	Record string
	// Write, when set, writes the report's outputs: a failure there is a
	// failure of the scan.
	Write func(*report.Report) error
	// Failed, when set, is where the failure record goes when the scan
	// fails; a complete scan removes a stale one. Outputs are the files an
	// earlier scan wrote that a failed scan removes, so that no old grade
	// is read beside a new failure.
	Failed  string
	Outputs []string
}

// JudgeStartError is a scan's judge that did not start (no such
// plugin, a setting it lacks, a model other than the pinned one): the
// rest of the judge stage (its prompts, prices, batches) fails with
// errors of its own. Its text is Err's.
type JudgeStartError struct{ Err error }

// Error is the start's failure as it was worded.
func (e *JudgeStartError) Error() string { return e.Err.Error() }

// Unwrap returns the start's failure.
func (e *JudgeStartError) Unwrap() error { return e.Err }

// Scan scores src with r. It returns the report, or a *Failure (which
// wraps the error that stopped the scan) saying where it stopped and what
// was done; with ScanOptions.Failed the record is also written.
func (s *Session) Scan(ctx context.Context, src Source, r *rubric.Rubric, o ScanOptions) (rep *report.Report, err error) {
	f := &Failure{stage: StageJudge}
	start := time.Now()
	defer func() {
		if err != nil {
			err = s.fail(ctx, f, r, src, err)
		}
		settle(s.opt.Log, o, f, err)
	}()
	var asker score.Asker
	var own *ask.Asker
	if src.Surface == nil && o.Answers == nil && s.judgeRef(r) != "" && s.judge == nil {
		s.startEarly(ctx, src.Transport)
	}
	switch {
	case o.Answers != nil:
		if len(r.Questions) > 0 {
			asker = ask.FromReport(o.Answers)
		}
	default:
		j, err := s.StartJudge(ctx, r)
		if err != nil {
			return nil, &JudgeStartError{Err: err}
		}
		if j != nil {
			if own, err = s.Asker(ctx, r, o.Fresh); err != nil {
				return nil, err
			}
			if salt := o.Salt; salt != "" {
				own.Salt = func(ask.Request) string { return salt }
			}
			scope := src.Transport + " " + s.recorded(src)
			if o.Salt != "" {
				// A salted scan's batches are its own: a scan of the same
				// target under another salt (another run of a
				// calibration) must not tidy them away as unneeded.
				scope += " " + o.Salt
			}
			if own.Batch != nil {
				own.Batch.Scope = scope
			} else if err := own.TellPending(scope); err != nil {
				return nil, err
			}
			f.asker, asker = own, own
			defer s.EndProgress()
		}
	}
	f.stage = StageExport
	surf := src.Surface
	readMS := 0.0
	var from *report.Origin
	if surf == nil {
		var info transport.Info
		if surf, info, err = s.export(ctx, src.Transport, src.Target); err != nil {
			return nil, err
		}
		readMS = float64(time.Since(start).Microseconds()) / 1000
		from = origin(src.Target, info)
	} else if o.Answers != nil {
		from = o.Answers.Origin // rescored: the same target
	}
	n := len(surf.Tools)
	f.tools, f.stage = &n, StageScore
	if asker != nil {
		defer collector.Raise(judgedGCPercent)()
	}
	rep, err = score.Run(ctx, r, surf, score.Options{Target: s.recorded(src), Version: s.opt.Version, Workers: s.opt.Workers, Asker: asker})
	s.EndProgress() // clear the bar before anything is printed
	if err != nil {
		return nil, err
	}
	if own != nil {
		// Records no run will take up go; failing to drop one only
		// leaves it for the next run.
		if t, err := own.TidyBatches(); err != nil {
			s.opt.Log.Warn("could not drop the records of finished batches", "error", err)
		} else {
			if t.Answered > 0 {
				s.opt.Log.Info("dropped the records of batches whose answers are all cached", "records", t.Answered)
			}
			if t.Stale > 0 {
				s.opt.Log.Info("dropped the records of batches of earlier definitions, none of whose questions this run asked", "records", t.Stale)
			}
		}
	}
	rep.Timings.ReadMS = readMS
	rep.Origin = from
	switch {
	case own != nil:
		if rep.Judge, err = s.JudgeBlock(ctx, r); err != nil {
			return nil, err
		}
		rep.Calls = own.Stats().Report(ask.Stats{})
		rep.Calls.Cost = s.Cost(own)
	case asker != nil:
		// Rescored from recorded answers: every one is a cache hit.
		rep.Judge = o.Answers.Judge
		for range rep.Observations() {
			rep.Calls.CacheHits++
			rep.Calls.Questions++
		}
	}
	if o.Record != "" && own != nil {
		if err := WriteRecord(o.Record, rep); err != nil {
			return nil, fmt.Errorf("write %s: %w", o.Record, err)
		}
	}
	f.stage = StageWrite
	if o.Write != nil {
		if err := o.Write(rep); err != nil {
			return nil, err
		}
	}
	f.stage = stageDone
	return rep, nil
}

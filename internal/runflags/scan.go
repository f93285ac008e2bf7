package runflags

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/clientconfig"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/jobqueue"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/progress"
	"github.com/rubricmcp/rubric/rubrics"
)

// AddScan declares the flags of how a scan does its jobs, which the
// scan and its workers share; defaultRubric is the rubric of a scan
// that names none.
func AddScan(cmd *cobra.Command, defaultRubric string) {
	f := cmd.Flags()
	f.StringArray("rubric", nil, "built-in rubric name or path of a .hcl file (repeatable; default: RUBRIC_RUBRIC or the config's rubric:, else "+defaultRubric+")")
	f.StringP("out", "o", "", "the scan's directory: reports, failure records, job records and the leaderboard")
	Folder(f, "out")
	f.Int("parallel", run.DefaultServers, "servers scanned at once")
	f.Int("workers", 0, "tools scored in parallel within a server (0: one per CPU)")
	f.Duration("timeout", 5*time.Minute, "longest time one server may take: install, read and score (0: no bound; a queue in a database still takes a job back as a dead worker's after a day)")
	f.Int("attempts", 3, "tries of installing and of starting each server")
	f.Duration("backoff", 2*time.Second, "wait before the second try, doubled before each next one")
	localconfig.AllowZero(f, "timeout", "backoff")
	f.Bool("npm-offline", false, "install npm packages from npm's cache only")
	f.String("npm-lock", "", "a directory with a package.json and package-lock.json: npm packages are installed as it locks them (npm ci)")
	f.String("judge-rate", "", "the most calls a minute to each judge model, shared by every worker on the queue's database: N/min or N/s (default: no limit); paces the judges that call a model (openai, anthropic, claude-cli, a plugin's), never the offline heuristic")
	AddJudge(cmd)
	// A scan runs a session per server at once, and a list says how to
	// read each one: these judge and target flags do not apply, and
	// are refused when given (ScanRead, ScanSession). Hidden, the help
	// does not offer them.
	for _, name := range []string{"max-cost", "record", "answers"} {
		f.MarkHidden(name)
	}
}

// HideScanTarget hides the target flags a scan refuses (ScanRead):
// --transport, --header and --cwd, which the list says per server.
func HideScanTarget(cmd *cobra.Command) {
	for _, name := range []string{"transport", "header", "cwd"} {
		cmd.Flags().MarkHidden(name)
	}
}

// ScanNumbers refuses, before a scan or a worker opens its queue or
// writes to its directory, a --parallel or --attempts below 1 and a
// negative --timeout or --backoff, naming the flag: the queue refused a
// negative one only once the scan's directory was made, in its own
// words, and took 0 for 1.
func (fl Flags) ScanNumbers() error {
	v := fl.V
	if n := v.GetInt("parallel"); n < 1 {
		return fmt.Errorf("--parallel %d: give how many servers are scanned at once, 1 or more (default %d)", n, run.DefaultServers)
	}
	if n := v.GetInt("attempts"); n < 1 {
		return fmt.Errorf("--attempts %d: give how often installing and starting a server are tried, 1 or more (1: no second try)", n)
	}
	if d := v.GetDuration("timeout"); d < 0 {
		return fmt.Errorf("--timeout %s: give the longest time one server may take, or 0 for no bound", d)
	}
	if d := v.GetDuration("backoff"); d < 0 {
		return fmt.Errorf("--backoff %s: give the wait before a second try, 0 or more", d)
	}
	return nil
}

// ScanRubrics are the --rubric flags' rubrics, else those RUBRIC_RUBRIC
// or the config file's rubric: name (a list, as a repeatable flag's
// is), else defaultRubric: score honours the configured rubric, and a
// scan run beside it scored with another one without a word. Two of one
// name are refused, since a leaderboard has a column per name.
func (fl Flags) ScanRubrics(defaultRubric string) ([]*rubric.Rubric, error) {
	names, _ := fl.Cmd.Flags().GetStringArray("rubric")
	if !fl.Cmd.Flags().Changed("rubric") {
		names = localconfig.List(fl.V, "rubric")
	}
	if len(names) == 0 {
		names = []string{defaultRubric}
	}
	var out []*rubric.Rubric
	seen := map[string]bool{}
	for _, n := range names {
		r, err := rubrics.FindContext(fl.Cmd.Context(), n)
		if err != nil {
			// Blamed on the variable or the config's line, when one
			// gave it.
			return nil, &localconfig.ValueError{Key: "rubric", Err: err}
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("--rubric %s: two rubrics are named %s, and a leaderboard has a column per name", n, r.Name)
		}
		seen[r.Name] = true
		out = append(out, r)
	}
	return out, nil
}

// ScanRead is how the target flags say a scan list's servers are read:
// limits, sandboxes and environment, the client configuration's format,
// and --package-sandbox for the packages a scan installs.
func (fl Flags) ScanRead() (scan.ReadOptions, error) {
	for _, name := range []string{"transport", "header", "cwd"} {
		if fl.Cmd.Flags().Changed(name) {
			return scan.ReadOptions{}, fmt.Errorf("--%s does not apply to a scan: the list says how to read each server", name)
		}
	}
	if lock := fl.V.GetString("npm-lock"); lock != "" {
		// Before the list is read and --out made: the scan is refused.
		if err := scan.CheckLock(lock); err != nil {
			return scan.ReadOptions{}, err
		}
	}
	_, base, err := fl.Build("", nil)
	if err != nil {
		return scan.ReadOptions{}, err
	}
	format, err := clientconfig.ParseFormat(fl.V.GetString("config-format"))
	if err != nil {
		return scan.ReadOptions{}, err
	}
	ro := scan.ReadOptions{Limits: base.Limits, StrictStdout: base.StrictStdout, Sandbox: base.Sandbox, Env: base.Env, ConfigFormat: format}
	if box := fl.V.GetString("package-sandbox"); box != "none" && box != "" {
		if box != transport.SandboxBwrap {
			// Not Sandbox.Check's words, which name --sandbox and
			// not none.
			return scan.ReadOptions{}, fmt.Errorf("--package-sandbox %q: give %s (bubblewrap, the default) or none (no sandbox)", box, transport.SandboxBwrap)
		}
		ro.PackageSandbox = transport.Sandbox{Kind: box}
	}
	return ro, nil
}

// ScanQueue opens --db: SQLite under out by default, drained by this
// process; Postgres only enqueued (workers do the jobs); memory, a
// plain loop.
func (fl Flags) ScanQueue(ctx context.Context, out string) (scan.Queue, func(), error) {
	dsn := fl.V.GetString("db")
	switch {
	case dsn == "memory":
		return &scan.Memory{}, func() {}, nil
	case dsn == "":
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, nil, err
		}
		dsn = "sqlite:" + filepath.Join(out, "queue.db")
	}
	q, err := jobqueue.Open(ctx, dsn)
	if bad := (*jobqueue.DSNError)(nil); errors.As(err, &bad) {
		return nil, nil, fmt.Errorf("--db %q names no queue: give sqlite:PATH, postgres://HOST/DB (enqueue only: rubric scan worker does the jobs) or memory (no database)", dsn)
	}
	if err != nil {
		return nil, nil, err
	}
	return scan.DB{Queue: q, Drain: !EnqueuesOnly(dsn)}, func() { q.Close() }, nil
}

// EnqueuesOnly reports whether a scan given --db dsn only enqueues its
// list, into a database workers share (rubric scan worker does the
// jobs, each into its own --out), rather than doing the jobs itself (no
// --db, sqlite:PATH, memory).
func EnqueuesOnly(dsn string) bool {
	return dsn != "" && dsn != "memory" && !strings.HasPrefix(dsn, "sqlite:")
}

// Scanner is a scanner of the settings writing into out, with a session
// per worker sharing the plugin host, the answer cache and, with
// --judge-rate, the judge's rate limit kept in queue's database, and a
// progress line on stderr when it is a terminal. The returned function
// clears the progress line and ends the scanner and its plugins: call it
// once the scan has run, before printing its summary (calling it again
// does nothing).
func (h Host) Scanner(rs []*rubric.Rubric, out string, queue scan.Queue, stderr io.Writer) (*scan.Scanner, func(), error) {
	v := h.V
	if v.GetString("record") != "" || v.GetString("answers") != "" {
		return nil, nil, fmt.Errorf("--record and --answers take one server: score it with rubric score")
	}
	if v.IsSet("max-cost") {
		return nil, nil, fmt.Errorf("--max-cost bounds one session, and a scan runs one per server at once: leave it out, and see docs/scan.md for the cost of a scan")
	}
	if lock := v.GetString("npm-lock"); lock != "" {
		// Checked again for a worker, which reads no list.
		if err := scan.CheckLock(lock); err != nil {
			return nil, nil, err
		}
	}
	limit, err := judgeLimit(v.GetString("judge-rate"), queue)
	if err != nil {
		return nil, nil, err
	}
	var line *progress.Line
	if f, ok := stderr.(*os.File); ok && v.GetBool("progress") && isatty.IsTerminal(f.Fd()) {
		line = progress.NewLine(f, func() int { return text.TerminalWidth(f) })
		// What rubric and its plugins log goes on a line of its own,
		// above the progress line, which is drawn again below it.
		h.Log = Logger(v, line, h.Hidden)
	}
	o, closeHost, err := h.SessionOptions(true, stderr)
	if err != nil {
		return nil, nil, err
	}
	o.JudgeLimit = limit
	o.Progress = nil // the scan's own line instead of a bar per server
	if o.Cache == nil {
		o.Cache = cache.Memory() // --no-cache: shared by the workers all the same
	}
	s := &scan.Scanner{
		Out: out, Rubrics: rs,
		NewSession: func() *run.Session { return run.New(o) },
		Installer:  &scan.Commands{Offline: v.GetBool("npm-offline"), Lock: v.GetString("npm-lock")},
		Timeout:    v.GetDuration("timeout"), Attempts: v.GetInt("attempts"), Backoff: v.GetDuration("backoff"),
		Log: h.Log,
	}
	if h.Hidden != nil {
		s.Hide = h.Hidden.Add
	}
	if line != nil {
		s.Progress = func(p scan.Progress) { line.Show(p.String(), p.InFlight == 0) }
	}
	return s, sync.OnceFunc(func() {
		if line != nil {
			line.End()
		}
		s.Close()
		closeHost()
	}), nil
}

// judgeLimit is --judge-rate's limit per judge identity, its slots kept
// in the queue's database so that every worker of the scan, on any
// machine, shares them; nil without a rate.
func judgeLimit(rate string, queue scan.Queue) (func(judge.Identity) ask.Limit, error) {
	if rate == "" {
		return nil, nil
	}
	perMinute, err := ParseRate(rate)
	if err != nil {
		return nil, err
	}
	db, ok := queue.(scan.DB)
	if !ok {
		return nil, fmt.Errorf("--judge-rate keeps its slots in the queue's database, and --db memory has none: leave --db memory out (the scan then queues in sqlite:OUT/queue.db)")
	}
	return func(id judge.Identity) ask.Limit {
		keys := RateKeys(id)
		if len(keys) == 0 {
			// A judge that answers by rules calls no provider: nothing
			// to pace, and a scan with the offline default and a rate
			// set ran slowly for nothing.
			return nil
		}
		if len(keys) == 1 {
			return db.Queue.Limiter(keys[0], perMinute)
		}
		var all allLimits
		for _, k := range keys {
			all = append(all, db.Queue.Limiter(k, perMinute))
		}
		return all
	}, nil
}

// RateKeys are the rate limits a question to the judge id takes a slot
// of: its own (RateKey), or for a panel one of each member's, since the
// panel asks every member (two members of one model take two slots of
// its limit, as two calls do). A judge whose identity says it is a
// heuristic (judge.Identity.Heuristic) answers by rules, in the process,
// and calls no provider whose limit --judge-rate keeps: it takes no slot,
// and neither does such a member of a panel; none for a judge that is one.
func RateKeys(id judge.Identity) []string {
	members, ok := panel.MemberIdentities(id)
	if !ok {
		members = []judge.Identity{id}
	}
	var keys []string
	for _, m := range members {
		if !m.Heuristic {
			keys = append(keys, RateKey(m))
		}
	}
	return keys
}

// allLimits waits on every limit in turn: a call that counts against
// several limits (a panel's, one a member) starts once each has a slot.
type allLimits []ask.Limit

// Wait takes a slot of each limit.
func (all allLimits) Wait(ctx context.Context) error {
	for _, l := range all {
		if err := l.Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// ParseRate reads a --judge-rate, N/min or N/s, as calls a minute.
func ParseRate(s string) (int, error) {
	n, unit, _ := strings.Cut(s, "/")
	per := map[string]int{"min": 1, "m": 1, "s": 60, "sec": 60}[unit]
	count, err := strconv.Atoi(n)
	if err != nil || count < 1 || per == 0 {
		return 0, fmt.Errorf("--judge-rate %q: write how many calls, then /min or /s, as 500/min or 8/s", s)
	}
	return count * per, nil
}

// RateKey names a judge's rate limit: its provider (or plugin) and
// model, which a provider's limits are counted by; its other settings
// (temperature, seed) share the limit.
func RateKey(id judge.Identity) string {
	who := id.Provider
	if who == "" {
		who = id.Plugin
	}
	return who + ":" + id.Model
}

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/jobqueue"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/internal/words"
)

// scanList is what rubric scan takes as its argument, as its messages
// name it.
const scanList = "one list of servers (LIST: a JSON or TSV list, a registry's server.json, a client configuration, or a directory of captures)"

func (a *app) scanCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "scan LIST --out DIR [--rubric NAME]...",
		Short:   "Score many servers with several rubrics into one leaderboard, resumably",
		Long:    help("scan"),
		Example: help("scan-example"),
		// No list is told in runScan, once --out is read from the flag,
		// the environment or the config, so that a command missing both
		// hears of both.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return oneArg("scan", scanList)(cmd, args)
			}
			return nil
		},
		RunE: a.runScan,
	}
	f := cmd.Flags()
	f.String("shard", "", "score only the part i/n of the list (1 ≤ i ≤ n)")
	f.String("db", "", "the queue: sqlite:PATH (default sqlite:OUT/queue.db), postgres://... (enqueue only: rubric scan worker does the jobs) or memory (no database)")
	f.String("config-format", "", "the client LIST belongs to, when it is a client configuration: claude-desktop, claude-code, cursor or vscode")
	f.String("package-sandbox", transport.SandboxBwrap, "sandbox of the packages a scan installs: bwrap, or none")
	runflags.AddTarget(cmd)
	runflags.HideScanTarget(cmd)
	runflags.AddScan(cmd, defaultRubric)
	cmd.AddCommand(a.scanMergeCmd(), a.scanWorkerCmd())
	return cmd
}

func (a *app) scanWorkerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "worker --db postgres://... --out DIR [--rubric NAME]...",
		Short: "Do the jobs of a scan enqueued in a database, until stopped",
		Long:  help("scan-worker"),
		Args:  noArgs,
		RunE:  a.runScanWorker,
	}
	f := cmd.Flags()
	f.String("db", "", "the queue's database: postgres://USER@HOST/DB or sqlite:PATH")
	f.Bool("drain", false, "stop once the queue holds no job to do")
	runflags.AddScan(cmd, defaultRubric)
	return cmd
}

func (a *app) scanMergeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Combine the directories of a scan's shards into one leaderboard",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("scan merge takes the directories of a scan's shards (DIR...), got none")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			out := a.v.GetString("out")
			if out == "" {
				return fmt.Errorf("--out: name the directory of the merged leaderboard")
			}
			dirs := a.distinctDirs(args)
			for _, d := range dirs {
				if sameDir(d, out) {
					return fmt.Errorf("--out %s is one of the directories merged: the merge would make that part the whole (its shard, resumed there, is then refused, and a worker's records mix with the others'); give --out a directory of its own", out)
				}
			}
			lb, err := scan.Merge(dirs, out, version(), scan.MergeOptions{Partial: a.v.GetBool("partial"), Say: a.say})
			if err != nil {
				return err
			}
			return a.scanSummary(lb, len(dirs), out)
		},
	}
	cmd.Flags().StringP("out", "o", "", "the merged scan's directory")
	runflags.Folder(cmd.Flags(), "out")
	cmd.Flags().Bool("partial", false, "merge a set that lacks shards of its list; the leaderboard then says which")
	return cmd
}

// sameDir says whether a and b name one directory (by path, or as the
// same file once both exist).
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// distinctDirs are dirs with each directory once (a glob and a name may
// give one twice, or two paths one directory), saying which were given
// more than once: a directory is one shard however often it is named.
func (a *app) distinctDirs(dirs []string) []string {
	var out []string
	var infos []os.FileInfo
	var twice []string
next:
	for _, d := range dirs {
		fi, err := os.Stat(d)
		for i, seen := range infos {
			if err == nil && seen != nil && os.SameFile(fi, seen) || filepath.Clean(d) == filepath.Clean(out[i]) {
				twice = append(twice, d)
				continue next
			}
		}
		out = append(out, d)
		infos = append(infos, fi)
	}
	if len(twice) > 0 {
		a.say(fmt.Sprintf("%s given more than once: merged once", words.List(twice, 5)))
	}
	return out
}

// say prints a line of what a scan assumes on stderr.
func (a *app) say(line string) { fmt.Fprintln(a.stderr, "rubric:", line) }

// scanSettings are the settings a scan's scores depend on beside its
// rubrics, as scan.json records them: the judge's flags (URLs without
// their credentials), when a rubric asks questions. A scan resumed with
// other values is refused.
func scanSettings(v *viper.Viper, rs []*rubric.Rubric) []scan.Setting {
	if !slices.ContainsFunc(rs, func(r *rubric.Rubric) bool { return len(r.Stages()) > 0 }) {
		return []scan.Setting{{Flag: "judge", Value: "(none: no rubric asks a question)"}}
	}
	value := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return redact.Text(s)
	}
	opts := localconfig.List(v, "judge-option")
	opts = slices.Sorted(slices.Values(opts))
	judge := v.GetString("judge")
	if judge == "" {
		judge = run.DefaultJudge // the judge an unnamed one is: the same scores
	}
	return []scan.Setting{
		{Flag: "judge", Value: redact.Text(judge)},
		{Flag: "model", Value: value(v.GetString("model"))},
		{Flag: "base-url", Value: value(v.GetString("base-url"))},
		{Flag: "judge-option", Value: value(strings.Join(opts, ","))},
	}
}

func (a *app) runScan(cmd *cobra.Command, args []string) error {
	v, fl := a.v, a.flags(cmd)
	out := v.GetString("out")
	// Enqueued into a database workers share (Postgres), a list is done
	// by workers, each into its own --out: the scan writes nothing of
	// its own.
	enqueueOnly := runflags.EnqueuesOnly(v.GetString("db"))
	switch {
	case len(args) == 0 && out == "" && !enqueueOnly:
		return fmt.Errorf("scan takes %s and --out, the scan's directory: both are missing (see %s --help)", scanList, cmd.CommandPath())
	case len(args) == 0:
		return fmt.Errorf("scan takes %s, got 0 arguments (see %s --help)", scanList, cmd.CommandPath())
	case out == "" && !enqueueOnly:
		return fmt.Errorf("--out: name the scan's directory (run again with the same --out to resume)")
	}
	if err := fl.ScanNumbers(); err != nil {
		return err
	}
	rs, err := fl.ScanRubrics(defaultRubric)
	if err != nil {
		return err
	}
	var shard scan.Shard
	if s := v.GetString("shard"); s != "" {
		if shard, err = scan.ParseShard(s); err != nil {
			return err
		}
	}
	ro, err := fl.ScanRead()
	if err != nil {
		return err
	}
	ro.Say = a.say
	ro.EnvFlag = cmd.Flags().Changed("env")
	ro.SandboxFlag = cmd.Flags().Changed("sandbox")
	if st, err := os.Stat(args[0]); err == nil && st.IsDir() && sameDir(args[0], out) {
		return fmt.Errorf("--out %s is the directory of captures the scan reads: the scan's own JSON files (leaderboard.json, scan.json) would be read as servers when it is resumed; give --out a directory of its own", out)
	}
	jobs, err := scan.ReadList(cmd.Context(), args[0], ro)
	if err != nil {
		return err
	}
	scan.Key(jobs, rs)
	list := scan.ListOf(jobs, shard)
	jobs = shard.Pick(jobs)
	queue, closeQueue, err := fl.ScanQueue(cmd.Context(), out)
	if err != nil {
		return err
	}
	defer closeQueue()
	if db, ok := queue.(scan.DB); ok && !db.Drain {
		r, err := db.Enqueue(cmd.Context(), jobs)
		if err != nil {
			return err
		}
		if len(jobs) > 0 && r.Done == len(jobs) {
			// Nothing for a worker to do: "start workers" would send
			// the user to start some that find nothing.
			fmt.Fprintf(a.stdout, "0 jobs enqueued: the list's %s done already, nothing is left for a worker; merge the workers' directories (rubric scan merge DIR... --out BOARD) for the leaderboard, or use another database to score the list afresh\n", report.Plural(len(jobs), "job")+words.Pick(len(jobs), " is", " are"))
			return nil
		}
		fmt.Fprintf(a.stdout, "%s enqueued: start workers with rubric scan worker --db DSN --out DIR and the same --rubric flags\n", report.Plural(r.Added+r.Again, "job"))
		if r.Again > 0 {
			a.say(fmt.Sprintf("%d of them were in the queue cancelled or failed, not done, and are enqueued again as they were first enqueued", r.Again))
		}
		if held := len(jobs) - r.Added - r.Again; held > 0 {
			// The queue keeps a job as it was first enqueued, and its
			// workers do it so: this run's read limits cannot reach it.
			if waiting := held - r.Done; waiting > 0 {
				a.say(fmt.Sprintf("%d of the list's %d jobs were in the queue already and are not enqueued again (%d done, %d not done yet): those not done yet keep the read limits of the run that enqueued them (--start-timeout, --request-timeout, --max-bytes, --max-tools, --strict-stdout)", held, len(jobs), r.Done, waiting))
			} else {
				a.say(fmt.Sprintf("%d of the list's %d jobs were in the queue already, done, and are not enqueued again", held, len(jobs)))
			}
		}
		return nil
	}
	return a.scanInto(cmd, rs, out, queue, jobs, list)
}

// scanInto does the jobs of queue (and jobs, when given) into out, then
// writes and sums up the leaderboard of out; a scan that is stopped
// writes none (the next run resumes it), a worker (whose list is nil)
// writes that of the jobs it did.
func (a *app) scanInto(cmd *cobra.Command, rs []*rubric.Rubric, out string, queue scan.Queue, jobs []scan.Job, list *scan.ListRecord) error {
	worker := list == nil
	var putBack atomic.Int64
	if db, ok := queue.(scan.DB); ok && worker {
		db.PutBack = func(string) { putBack.Add(1) }
		queue = db
	}
	s, done, err := a.host().Scanner(rs, out, queue, a.stderr)
	if err != nil {
		return err
	}
	defer done()
	s.List, s.Settings, s.Say = list, scanSettings(a.v, rs), a.say
	err = s.Run(cmd.Context(), queue, jobs, a.v.GetInt("parallel"))
	done() // the progress line is erased before the summary is printed
	if cmd.Context().Err() != nil {
		if !worker {
			// Stopped: the jobs left are done by the next run.
			return interrupted(s.Ran(), out)
		}
		// A worker of a fleet runs until stopped: it sums up the jobs
		// it did, and says what it held went back to the queue, which
		// the one stopping it should hear, and exits as a run
		// interrupted does.
		if err == nil {
			if lb, err := scan.Build(out, version()); err == nil {
				_ = a.scanRunSummary(s.Ran(), lb, out)
			}
		}
		return &stoppedScan{msg: workerStopped(signalName(cmd.Context()), int(putBack.Load()))}
	}
	if err != nil {
		return err
	}
	lb, err := scan.Build(out, version())
	if err != nil {
		return err
	}
	if err := a.scanRunSummary(s.Ran(), lb, out); err != nil {
		return err
	}
	if missing := s.Missing(jobs); len(missing) > 0 {
		// The queue ran out of jobs the list has and the directory
		// lacks: the leaderboard is not the whole scan.
		names := make([]string, len(missing))
		for i, j := range missing {
			names[i] = j.Name
		}
		return fmt.Errorf("%d of the list's %d servers are neither done nor waiting in the queue, so %s.md is not the whole scan: %s; run the same command again to do them",
			len(missing), len(jobs), filepath.Join(out, "leaderboard"), words.List(names, 5))
	}
	return nil
}

// interrupted is the error of a scan stopped by a signal: what it kept,
// and how to go on.
func interrupted(ran scan.Ran, out string) error {
	var done string
	switch n := ran.Scored + ran.Failed + ran.Kept; n {
	case 0:
		done = "no server was done yet"
	case 1:
		done = "the one server done so far is kept in " + out
	default:
		done = fmt.Sprintf("the %d servers done so far are kept in %s", n, out)
	}
	return &stoppedScan{msg: "interrupted; " + done + ": to resume, run the same command again with the same --out, which does only the servers not done and then writes the leaderboard"}
}

// workerStopped is the message of a worker stopped by sig that had put
// n jobs back in the queue.
func workerStopped(sig string, n int) string {
	if n == 0 {
		return "stopped by " + sig + ": no job was in hand; the queue keeps the jobs left for another worker or a rerun"
	}
	return fmt.Sprintf("stopped by %s: %s returned to the queue, another worker or a rerun takes %s", sig, report.Plural(n, "job"), words.Pick(n, "it", "them"))
}

// stoppedScan is a scan stopped by a signal; its message, which the
// root command prints in place of its own, says how to resume it.
type stoppedScan struct{ msg string }

func (e *stoppedScan) Error() string { return e.msg }

// runScanWorker does the jobs of a queue in a database.
func (a *app) runScanWorker(cmd *cobra.Command, _ []string) error {
	v := a.v
	out, dsn := v.GetString("out"), v.GetString("db")
	if out == "" || dsn == "" {
		return fmt.Errorf("--db and --out: name the scan's queue and this worker's directory")
	}
	if err := a.flags(cmd).ScanNumbers(); err != nil {
		return err
	}
	rs, err := a.flags(cmd).ScanRubrics(defaultRubric)
	if err != nil {
		return err
	}
	if dsn == "memory" {
		return fmt.Errorf("--db memory is a scan's own loop, with no queue to share: give the worker the database the scan enqueued into (--db postgres://HOST/DB, or sqlite:PATH)")
	}
	q, err := jobqueue.Open(cmd.Context(), dsn)
	if bad := (*jobqueue.DSNError)(nil); errors.As(err, &bad) {
		return fmt.Errorf("--db %q names no queue: give the database the scan enqueued into, postgres://HOST/DB or sqlite:PATH", dsn)
	}
	if err != nil {
		return err
	}
	defer q.Close()
	err = a.scanInto(cmd, rs, out, scan.DB{Queue: q, Drain: v.GetBool("drain")}, nil, nil)
	if other := (*scan.OtherRubricsError)(nil); errors.As(err, &other) {
		// No flag, variable or config line chose this worker's rubric:
		// the message says it is the default, not a --rubric given.
		other.WorkerDefault = !cmd.Flags().Changed("rubric") && localconfig.Origin(v, cmd.Flags(), "rubric") == ""
	}
	return err
}

// scanSummary prints, for a merge of shards, the merged leaderboard's
// totals as what the shards did (a merge asks no judge), and where it is;
// a merge in which no server was scored exits 2, as such a scan does.
// dirs is how many directories were merged: as many shards, unless one
// was a merge of several (the shards are then those its record holds).
func (a *app) scanSummary(lb *scan.Leaderboard, dirs int, out string) error {
	parts := report.Plural(dirs, "shard")
	workers := false
	switch m, err := scan.ReadMeta(out); {
	case err == nil && m.List == nil && m.Settings != nil:
		workers = true
		// Workers' directories (no list, their settings recorded): what a queue
		// handed out, not shards of a list.
		parts = fmt.Sprintf("%d %s (no shards: what workers of a queue did)", dirs, words.Pick(dirs, "directory", "directories"))
	case err == nil && m.List != nil && len(m.List.Holds) != dirs:
		// A partial merge among the parts holds several shards.
		parts = fmt.Sprintf("%s from %d %s", report.Plural(len(m.List.Holds), "shard"), dirs, words.Pick(dirs, "directory", "directories"))
	}
	fmt.Fprintf(a.stdout, "merged %s, whose runs made: %s\n", parts, totalsLine(lb.Totals, ""))
	if lb.Partial != nil {
		fmt.Fprintln(a.stdout, lb.Partial.Sentence())
	}
	if _, err := fmt.Fprintf(a.stdout, "leaderboard: %[1]s.json, %[1]s.md, %[1]s.html\n", filepath.Join(out, "leaderboard")); err != nil {
		return err
	}
	if msg := noTools(lb.Totals, out); msg != "" {
		// A part run again skips such servers (each has its record):
		// only a fresh directory reads them again.
		return &exitError{code: exitInvalid, msg: msg + ": mend the parts' lists (a server often lists its tools only once given its key or settings) and scan them again, each into a new --out"}
	}
	if t := lb.Totals; t.Servers > 0 && t.Scored == 0 {
		// As a scan that scored no server: a leaderboard of failures
		// alone is no ranking to publish, and the job merging should
		// see it.
		all := fmt.Sprintf("all %d servers", t.Servers)
		if t.Servers == 1 {
			all = "the one server"
		}
		return &exitError{code: exitInvalid, msg: fmt.Sprintf("no server could be scored: %s of the merged %s failed (each one's reason is in %s.md and under %s)%s",
			all, words.Pick(dirs, "part", "parts"), filepath.Join(out, "leaderboard"), filepath.Join(out, "failed"), mergedRetry(lb, workers, out))}
	}
	return nil
}

// mergedRetry says how the failures of a merge are tried again: those
// on rubric's side or the registry's by the parts' scans run again (a
// worker's by the scan's command on the merge, since the queue holds
// their jobs done), the servers' own only by a scan into a new --out,
// since a scan run again keeps them.
func mergedRetry(lb *scan.Leaderboard, workers bool, out string) string {
	n, down := retried(lb)
	var why []string
	if r := n + down; r > 0 {
		how := "run the parts' scans again, which try only those again, then merge them again"
		if workers {
			how = "run the scan's command with --out " + out + " and no --db, which tries only those again"
		}
		why = append(why, fmt.Sprintf("%s failed on rubric's side or the package registry's, not the server's: once that is mended, %s", report.Plural(r, "server"), how))
	}
	if own := ownFailed(lb); own != "" {
		why = append(why, own)
	}
	if len(why) == 0 {
		return ""
	}
	return ": " + strings.Join(why, "; ")
}

// ownFailed says how many servers of lb failed on their own side and
// that a scan run again into the same directory keeps those failures,
// or is "" when none did.
func ownFailed(lb *scan.Leaderboard) string {
	n, down := retried(lb)
	own := lb.Totals.Failed - n - down
	if own <= 0 {
		return ""
	}
	return fmt.Sprintf("%s failed on the server's side, which a scan run again keeps: mend what each reason says and scan the list again into a new --out", report.Plural(own, "server"))
}

// scanRunSummary prints what this run did (ran): the servers it scored,
// those it kept from an earlier run and the judge calls it made, which
// a paid judge bills; then, when the leaderboard holds more than this
// run did, its totals over every run; then where it is.
func (a *app) scanRunSummary(ran scan.Ran, lb *scan.Leaderboard, out string) error {
	kept := ""
	if ran.Kept > 0 {
		kept = fmt.Sprintf(", %d kept from an earlier run (not read again)", ran.Kept)
	}
	fmt.Fprintln(a.stdout, totalsLine(ran.Totals, kept))
	t := lb.Totals
	if t.Servers != ran.Scored+ran.Failed || t.Calls != ran.Calls || t.CacheHits != ran.CacheHits {
		fmt.Fprintf(a.stdout, "the leaderboard, over all its runs: %s\n", totalsLine(t, ""))
	}
	if lb.Partial != nil {
		fmt.Fprintln(a.stdout, lb.Partial.Sentence())
	}
	if lb.Worker {
		fmt.Fprintln(a.stdout, scan.WorkerSentence)
	}
	if _, err := fmt.Fprintf(a.stdout, "leaderboard: %[1]s.json, %[1]s.md, %[1]s.html\n", filepath.Join(out, "leaderboard")); err != nil {
		return err
	}
	retry := ""
	if n, down := retried(lb); n > 0 || down > 0 {
		var why []string
		// A worker run again does not try them: the queue holds their
		// jobs done. The scan's own command on the merge of the workers'
		// directories does only the jobs it has no good record of.
		again := func(n int, when string) string {
			it := words.Pick(n, "it", "them")
			if lb.Worker {
				return "a worker run again does not try " + it + " (the queue holds " + words.Pick(n, "its job", "their jobs") + " done): once " + when +
					", merge the workers' directories (rubric scan merge DIR... --out BOARD) and run the scan's command with --out BOARD and no --db, which tries only such servers again"
			}
			return "run the same command again once " + when + " to try " + it + " again"
		}
		if n > 0 {
			why = append(why, fmt.Sprintf("%s failed on rubric's side (the judge, or scoring the tools once read), not the server's: %s", report.Plural(n, "server"), again(n, "that is mended (the judge back, a rubric's formula fixed)")))
		}
		if down > 0 {
			why = append(why, fmt.Sprintf("%s could not be installed because the package registry did not answer, nothing of the %s doing: %s", report.Plural(down, "server"), words.Pick(down, "server's", "servers'"), again(down, "it answers")))
		}
		retry = "; " + strings.Join(why, "; ")
		if t.Scored > 0 {
			a.say(retry[2:])
		}
	}
	if msg := noTools(t, out); msg != "" {
		return &exitError{code: exitInvalid, msg: msg + ": give them what they need in the list (a server often lists its tools only once given its key or settings) and scan again into a new --out" + retry}
	}
	if t.Servers > 0 && t.Scored == 0 {
		// Some servers failing is part of a scan's result; none scored
		// is a scan that did not work (a list of wrong targets, no
		// network, a broken rubric), which a job running it should see.
		all := fmt.Sprintf("all %d servers", t.Servers)
		if t.Servers == 1 {
			all = "the one server"
		}
		if own := ownFailed(lb); own != "" {
			retry += "; " + own
		}
		return &exitError{code: exitInvalid, msg: fmt.Sprintf("no server could be scored: %s failed (each one's reason is in %s.md and under %s)%s",
			all, filepath.Join(out, "leaderboard"), filepath.Join(out, "failed"), retry)}
	}
	return nil
}

// noTools says, when some servers of t were read but every one that
// did not fail listed no tools, that nothing was graded: no rubric
// grades an empty surface, so the leaderboard holds no score, which is
// no ranking to publish any more than one of failures alone (a scan
// exits 2 for both). It is "" when a server was graded, or when none
// listed no tools (every one failed: the caller says so).
func noTools(t scan.Totals, out string) string {
	if t.Servers == 0 || t.NoTools == 0 || t.Scored > t.NoTools {
		return ""
	}
	all := fmt.Sprintf("all %d servers", t.NoTools)
	switch {
	case t.Failed > 0:
		all = fmt.Sprintf("%d of the %d servers", t.NoTools, t.Servers)
	case t.NoTools == 1:
		all = "the one server"
	}
	msg := fmt.Sprintf("nothing was graded: %s listed no tools, and no rubric grades an empty surface (see %s.md)", all, filepath.Join(out, "leaderboard"))
	if t.Failed > 0 {
		msg += fmt.Sprintf("; the other %d failed (each one's reason is under %s)", t.Failed, filepath.Join(out, "failed"))
	}
	return msg
}

// retried is how many of lb's failures a scan run again tries again:
// n on rubric's side, down for want of the package registry.
func retried(lb *scan.Leaderboard) (n, down int) {
	for _, f := range lb.Failed {
		switch {
		case f.Registry:
			down++
		case f.Retry:
			n++
		}
	}
	return n, down
}

// totalsLine is t on one line, with kept after the servers failed; the
// requests the provider refused for now or never answered are counted
// apart from the judge calls.
func totalsLine(t scan.Totals, kept string) string {
	refused := report.Calls{RateLimited: t.RateLimited, Unanswered: t.Unanswered}.Refusals()
	return fmt.Sprintf("%s: %d scored%s, %d failed%s · %s · %s%s, %d from the cache",
		report.Plural(t.Servers, "server"), t.Scored, t.NoToolsWords(), t.Failed, kept, report.Plural(t.Tools, "tool"), report.Plural(t.Calls, "judge call"), refused, t.CacheHits)
}

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/clientconfig"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/jobqueue"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) scanCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scan LIST --rubric NAME... --out DIR",
		Short: "Score many servers with several rubrics into one leaderboard, resumably",
		Long: `Scan reads a list of servers and scores each with every --rubric,
storing each server's reports (or its failure record) under --out, then
writes the leaderboard: leaderboard.json and leaderboard.md.

LIST is one of:
  a JSON array of {"name", "target"} (a file or URL) or
      {"name", "command": [...], "env": {...}, "cwd"}
  a .tsv file whose first line names the columns: name, target, command, env
  the official MCP registry's server.json, an array of them, or a page of
      its API ({"servers": [{"server": {...}}]}): npm and pypi packages are
      installed (npm into a directory per server, with install scripts
      off; pypi through uvx) and started in --package-sandbox; remotes
      are read at their URL
  a directory of captures (*.json)
  an MCP client's configuration (.mcp.json, claude_desktop_config.json, ...)

Each server is a job keyed by its target and the rubrics' digests: a
scan run again skips what is done, and the answer cache is shared, so no
judge question is asked twice. Installing and starting a server are tried
--attempts times, waiting --backoff, doubled each time; a server that
fails is recorded with its stage and reason, never graded.

--shard i/n scores the part i of n of the list, by a stable hash of each
job's key: run the n parts anywhere, then rubric scan merge their
directories. See docs/scan.md.`,
		Example: `  rubric scan servers.json --rubric schema-quality --rubric tdqs --out scan/
  rubric scan captures/ --rubric schema-quality --out scan/ --shard 2/3
  rubric scan merge scan-1/ scan-2/ scan-3/ --out board/`,
		Args: cobra.ExactArgs(1),
		RunE: a.runScan,
	}
	f := cmd.Flags()
	f.String("shard", "", "score only the part i/n of the list (1 ≤ i ≤ n)")
	f.String("db", "", "the queue: sqlite:PATH (default sqlite:OUT/queue.db), postgres://... (enqueue only: rubric scan worker does the jobs) or memory (no database)")
	f.String("config-format", "", "the client LIST belongs to, when it is a client configuration: claude-desktop, claude-code, cursor or vscode")
	f.String("package-sandbox", transport.SandboxBwrap, "sandbox of the packages a scan installs: bwrap, or none")
	targetFlags(cmd)
	scanFlags(cmd)
	cmd.AddCommand(a.scanMergeCmd(), a.scanWorkerCmd())
	return cmd
}

func (a *app) scanWorkerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "worker --db postgres://... --rubric NAME... --out DIR",
		Short: "Do the jobs of a scan enqueued in a database, until stopped",
		Long: `Worker takes jobs from the queue that rubric scan LIST --db enqueued and
does them as rubric scan does, storing reports and failure records under
its own --out; start any number, on any machine, with the scan's
--rubric flags. It runs until stopped (Ctrl-C, SIGTERM: the jobs in hand
are put back), or with --drain until the queue is empty, then writes the
leaderboard of what it did. Combine the workers' directories with
rubric scan merge.`,
		Args: cobra.NoArgs,
		RunE: a.runScanWorker,
	}
	f := cmd.Flags()
	f.String("db", "", "the queue's database: postgres://USER@HOST/DB or sqlite:PATH")
	f.Bool("drain", false, "stop once the queue holds no job to do")
	scanFlags(cmd)
	return cmd
}

func (a *app) scanMergeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Combine the directories of a scan's shards into one leaderboard",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := a.v.GetString("out")
			if out == "" {
				return fmt.Errorf("--out: name the directory of the merged leaderboard")
			}
			lb, err := scan.Merge(args, out, version())
			if err != nil {
				return err
			}
			return a.scanSummary(lb, out)
		},
	}
	cmd.Flags().StringP("out", "o", "", "the merged scan's directory")
	return cmd
}

// scanFlags are the flags of how a scan does its jobs, which its
// workers share.
func scanFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArray("rubric", nil, "built-in rubric name or path of a .hcl file (repeatable; default: "+defaultRubric+")")
	f.StringP("out", "o", "", "the scan's directory: reports, failure records, job records and the leaderboard")
	f.Int("parallel", run.DefaultServers, "servers scanned at once")
	f.Int("workers", 0, "tools scored in parallel within a server (0: one per CPU)")
	f.Duration("timeout", 5*time.Minute, "longest time one server may take: install, read and score")
	f.Int("attempts", 3, "tries of installing and of starting each server")
	f.Duration("backoff", 2*time.Second, "wait before the second try, doubled before each next one")
	f.Bool("npm-offline", false, "install npm packages from npm's cache only")
	f.String("npm-lock", "", "a directory with a package.json and package-lock.json: npm packages are installed as it locks them (npm ci)")
	judgeFlags(cmd)
}

// scanRubrics are the --rubric flags' rubrics.
func (a *app) scanRubrics(cmd *cobra.Command) ([]*rubric.Rubric, error) {
	names, _ := cmd.Flags().GetStringArray("rubric")
	if len(names) == 0 {
		names = []string{defaultRubric}
	}
	var out []*rubric.Rubric
	seen := map[string]bool{}
	for _, n := range names {
		r, err := rubrics.Find(n)
		if err != nil {
			return nil, err
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("--rubric %s: two rubrics are named %s, and a leaderboard has a column per name", n, r.Name)
		}
		seen[r.Name] = true
		out = append(out, r)
	}
	return out, nil
}

func (a *app) runScan(cmd *cobra.Command, args []string) error {
	v := a.v
	out := v.GetString("out")
	if out == "" {
		return fmt.Errorf("--out: name the scan's directory (run again with the same --out to resume)")
	}
	for _, name := range []string{"transport", "header", "cwd"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s does not apply to a scan: the list says how to read each server", name)
		}
	}
	rs, err := a.scanRubrics(cmd)
	if err != nil {
		return err
	}
	var shard scan.Shard
	if s := v.GetString("shard"); s != "" {
		if shard, err = scan.ParseShard(s); err != nil {
			return err
		}
	}
	_, base, err := a.flags(cmd).Build("", nil)
	if err != nil {
		return err
	}
	format, err := clientconfig.ParseFormat(v.GetString("config-format"))
	if err != nil {
		return err
	}
	ro := scan.ReadOptions{Limits: base.Limits, StrictStdout: base.StrictStdout, Sandbox: base.Sandbox, Env: base.Env, ConfigFormat: format}
	switch box := v.GetString("package-sandbox"); box {
	case "none", "":
	default:
		ro.PackageSandbox = transport.Sandbox{Kind: box}
		if err := ro.PackageSandbox.Check(); err != nil {
			return fmt.Errorf("--package-sandbox: %w", err)
		}
	}
	jobs, err := scan.ReadList(cmd.Context(), args[0], ro)
	if err != nil {
		return err
	}
	scan.Key(jobs, rs)
	jobs = shard.Pick(jobs)
	queue, closeQueue, err := a.scanQueue(cmd, out)
	if err != nil {
		return err
	}
	defer closeQueue()
	if db, ok := queue.(scan.DB); ok && !db.Drain {
		if err := db.Add(cmd.Context(), jobs); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "%d jobs enqueued: start workers with rubric scan worker --db DSN and the same --rubric flags\n", len(jobs))
		return nil
	}
	s, done, err := a.scanner(rs, out)
	if err != nil {
		return err
	}
	defer done()
	if err := s.Run(cmd.Context(), queue, jobs, v.GetInt("parallel")); err != nil {
		return err
	}
	if err := cmd.Context().Err(); err != nil {
		return err // stopped: the jobs left are done by the next run
	}
	lb, err := scan.Build(out, version())
	if err != nil {
		return err
	}
	return a.scanSummary(lb, out)
}

// scanQueue opens --db: SQLite under out by default, drained by this
// process; Postgres only enqueued; memory, a plain loop.
func (a *app) scanQueue(cmd *cobra.Command, out string) (scan.Queue, func(), error) {
	dsn := a.v.GetString("db")
	switch {
	case dsn == "memory":
		return &scan.Memory{}, func() {}, nil
	case dsn == "":
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, nil, err
		}
		dsn = "sqlite:" + filepath.Join(out, "queue.db")
	}
	q, err := jobqueue.Open(cmd.Context(), dsn)
	if err != nil {
		return nil, nil, err
	}
	return scan.DB{Queue: q, Drain: strings.HasPrefix(dsn, "sqlite:")}, func() { q.Close() }, nil
}

// scanner is a scanner of the flags, writing into out, with a session
// per worker sharing the plugin host and the answer cache.
func (a *app) scanner(rs []*rubric.Rubric, out string) (*scan.Scanner, func(), error) {
	v := a.v
	if v.GetString("record") != "" || v.GetString("answers") != "" {
		return nil, nil, fmt.Errorf("--record and --answers take one server: score it with rubric score")
	}
	if v.GetFloat64("max-cost") > 0 {
		return nil, nil, fmt.Errorf("--max-cost bounds one session, and a scan runs one per server at once: leave it out, and see docs/scan.md for the cost of a scan")
	}
	o, closeHost, err := a.sessionOptions(true)
	if err != nil {
		return nil, nil, err
	}
	o.Progress = nil // the scan's own line instead of a bar per server
	if o.Cache == nil {
		o.Cache = cache.Memory() // --no-cache: shared by the workers all the same
	}
	s := &scan.Scanner{
		Out: out, Rubrics: rs,
		NewSession: func() *run.Session { return run.New(o) },
		Installer:  scan.Commands{Offline: v.GetBool("npm-offline"), Lock: v.GetString("npm-lock")},
		Timeout:    v.GetDuration("timeout"), Attempts: v.GetInt("attempts"), Backoff: v.GetDuration("backoff"),
		Log: a.logger(),
	}
	line := a.scanProgress()
	if line != nil {
		s.Progress = line.show
	}
	return s, func() {
		if line != nil {
			line.end()
		}
		s.Close()
		closeHost()
	}, nil
}

// runScanWorker does the jobs of a queue in a database.
func (a *app) runScanWorker(cmd *cobra.Command, _ []string) error {
	v := a.v
	out, dsn := v.GetString("out"), v.GetString("db")
	if out == "" || dsn == "" {
		return fmt.Errorf("--db and --out: name the scan's queue and this worker's directory")
	}
	rs, err := a.scanRubrics(cmd)
	if err != nil {
		return err
	}
	q, err := jobqueue.Open(cmd.Context(), dsn)
	if err != nil {
		return err
	}
	defer q.Close()
	s, done, err := a.scanner(rs, out)
	if err != nil {
		return err
	}
	defer done()
	if err := s.Run(cmd.Context(), scan.DB{Queue: q, Drain: v.GetBool("drain")}, nil, v.GetInt("parallel")); err != nil {
		return err
	}
	lb, err := scan.Build(out, version())
	if err != nil {
		return err
	}
	return a.scanSummary(lb, out)
}

// scanSummary prints the leaderboard's totals and where it is.
func (a *app) scanSummary(lb *scan.Leaderboard, out string) error {
	t := lb.Totals
	_, err := fmt.Fprintf(a.stdout, "%d servers: %d scored, %d failed · %d tools · %d judge calls, %d from the cache\nleaderboard: %s, %s\n",
		t.Servers, t.Scored, t.Failed, t.Tools, t.Calls, t.CacheHits, out+string(os.PathSeparator)+"leaderboard.json", out+string(os.PathSeparator)+"leaderboard.md")
	return err
}

// progressLine redraws the scan's progress on one terminal line.
type progressLine struct {
	mu   sync.Mutex
	w    io.Writer
	last time.Time
}

// scanProgress is the progress line on standard error when it is a
// terminal and --progress is on; nil otherwise.
func (a *app) scanProgress() *progressLine {
	f, ok := a.stderr.(*os.File)
	if !ok || !a.v.GetBool("progress") || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	return &progressLine{w: f}
}

func (p *progressLine) show(s scan.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || s.InFlight == 0 {
		p.last = now
		fmt.Fprintf(p.w, "\r\033[K%s", s)
	}
}

func (p *progressLine) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}

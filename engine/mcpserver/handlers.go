package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/nearest"
)

// handler is a tool's work: it returns the structured result, or an
// error that the client receives as a tool error (IsError) with its
// message.
type handler func(ctx context.Context, c *call) (any, error)

// call is one tool call: its arguments and its progress reporting.
type call struct {
	args  map[string]any
	token mcp.ProgressToken

	// mu orders the progress notifications, which the judge's answers
	// send from several goroutines.
	mu sync.Mutex
	// sent is the progress last sent: MCP wants each notification's
	// progress above the one before, so a stage goes on from it and a
	// notification that would not is dropped.
	sent float64
	// base is the progress of the stage at work: its questions count
	// from it.
	base float64
}

// wrap turns h into an mcp-go handler: it checks the arguments against
// p, bounds the calls at work, recovers a panic, and turns every failure
// into a tool error.
func (s *Server) wrap(p params, h handler) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		c := &call{args: req.GetArguments()}
		if err := p.check(c.args); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		if req.Params.Meta != nil {
			c.token = req.Params.Meta.ProgressToken
		}
		release, err := s.acquire(ctx, c)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		defer release()
		defer func() {
			if p := recover(); p != nil {
				res, err = mcp.NewToolResultError(fmt.Sprintf("rubric failed inside %s (%v): please report it with the arguments that caused it", req.Params.Name, p)), nil
			}
		}()
		out, err := h(ctx, c)
		if err != nil {
			if ctx.Err() != nil {
				return mcp.NewToolResultError(fmt.Sprintf("cancelled: %v; nothing was kept", err)), nil
			}
			return mcp.NewToolResultError(worded(err, c.str("judge")).Error()), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		res = mcp.NewToolResultStructured(json.RawMessage(b), string(b))
		if f, ok := out.(partial); ok && f.partial() {
			// Part of the work failed: the client sees what stands, and
			// that the call did not wholly succeed.
			res.IsError = true
		}
		return res, nil
	}
}

// partial is a result some of whose parts failed, each saying why in
// the result itself.
type partial interface{ partial() bool }

func (o *lintOut) partial() bool { return o.Failed }

// send sends a progress notification when the client asked for them,
// unless its progress is not above the one last sent (an answer counted
// by another goroutine got there first). c.mu must be held.
func (c *call) send(ctx context.Context, done, total float64, msg string) {
	if c.token == nil || done <= c.sent {
		return
	}
	c.sent = done
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return
	}
	p := map[string]any{"progressToken": c.token, "progress": done, "message": msg}
	if total > 0 {
		p["total"] = total
	}
	_ = srv.SendNotificationToClient(ctx, "notifications/progress", p)
}

// step reports the next stage of the call's work, one above whatever
// was sent before; the stage's questions count from it.
func (c *call) step(ctx context.Context, msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base = c.sent + 1
	c.send(ctx, c.base, 0, msg)
}

// answered reports the questions of the stage at work answered so far.
func (c *call) answered(ctx context.Context, pr ask.Progress) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.send(ctx, c.base+float64(pr.Done), c.base+float64(pr.Total), fmt.Sprintf("%d of %d questions answered", pr.Done, pr.Total))
}

func (c *call) str(name string) string {
	v, _ := c.args[name].(string)
	return v
}

// reportID is the report_id argument, given by id or by the report's
// resource URI, which names the same report.
func (c *call) reportID() string { return strings.TrimPrefix(c.str("report_id"), reportURI) }

// pooled is a scan session kept between calls, so that its judge is
// started once; user is the call it serves now, whose progress its
// answers are.
type pooled struct {
	sess  *run.Session
	judge string
	user  struct {
		ctx context.Context
		c   *call
	}
}

// session lends a scan session judging with judge (the default when
// empty) to one call; give it back with release, saying whether the call
// ended well: a session whose call failed or was cancelled is closed
// rather than kept, since its judge may be half way through something.
func (s *Server) session(ctx context.Context, c *call, judge string) (sess *run.Session, release func(ok bool)) {
	s.poolMu.Lock()
	var p *pooled
	for i, q := range s.idle {
		if q.judge == judge {
			p = q
			s.idle = append(s.idle[:i], s.idle[i+1:]...)
			break
		}
	}
	s.poolMu.Unlock()
	if p == nil {
		p = &pooled{judge: judge}
		o := s.opt.Run
		o.Judge = judge
		o.Progress = func() (func(ask.Progress), func()) {
			ctx, c := p.user.ctx, p.user.c
			return func(pr ask.Progress) { c.answered(ctx, pr) }, func() {}
		}
		p.sess = run.New(o)
	}
	p.user.ctx, p.user.c = ctx, c
	return p.sess, func(ok bool) {
		p.user.ctx, p.user.c = nil, nil
		s.poolMu.Lock()
		defer s.poolMu.Unlock()
		if !ok || s.closed || len(s.idle) >= cap(s.slots) {
			p.sess.Close()
			return
		}
		s.idle = append(s.idle, p)
	}
}

// Close ends the judges of the sessions kept between calls.
func (s *Server) Close() {
	s.poolMu.Lock()
	defer s.poolMu.Unlock()
	s.closed = true
	for _, p := range s.idle {
		p.sess.Close()
	}
	s.idle = nil
}

// findRubric loads ref, saying which rubrics there are when it does not.
func (s *Server) findRubric(ctx context.Context, ref string) (*rubric.Rubric, error) {
	r, err := s.opt.Rubrics.Find(ctx, ref)
	var fe *boundedread.FileError
	switch {
	case errors.As(err, &fe) && fe.Next != "":
		// The loader's advice names rubric's command line (rubric
		// rubrics list); a client names a rubric in an argument, and a
		// relative path is read from rubric mcp's working directory.
		next := "give the path of a .hcl file, or the name of a built-in rubric (the rubrics tool lists them)"
		if wd, werr := os.Getwd(); werr == nil && !filepath.IsAbs(fe.Path) {
			next += "; a relative path is read from rubric mcp's working directory, " + wd
		}
		return nil, &boundedread.FileError{What: fe.What, Path: quoted(fe.Path), Next: next, Err: fe.Err}
	case err != nil:
		return nil, fmt.Errorf("rubric %s does not load: %w", quoted(ref), err)
	}
	return r, nil
}

// source builds what score reads from its arguments: exactly one of
// command, url, file and tools.
func (s *Server) source(c *call) (run.Source, error) {
	target, ok := c.args["target"].(map[string]any)
	if !ok {
		return run.Source{}, errors.New(`give target, an object with one of command, url, file or tools, such as {"file": "tools.json"}`)
	}
	c = &call{args: target}
	given := []string{}
	for _, k := range []string{"command", "url", "file", "tools"} {
		if v, ok := c.args[k]; ok && v != nil {
			given = append(given, k)
		}
	}
	if len(given) != len(target) {
		kinds := []string{"command", "file", "tools", "url"}
		for _, k := range slices.Sorted(maps.Keys(target)) {
			if !slices.Contains(kinds, k) {
				near := ""
				if n := nearest.Key(k, kinds); n != "" {
					near = fmt.Sprintf(" (did you mean %q?)", n)
				}
				return run.Source{}, fmt.Errorf("target has a member %s%s: give target exactly one of command, url, file or tools", quoted(k), near)
			}
		}
	}
	switch len(given) {
	case 0:
		return run.Source{}, fmt.Errorf("target is empty: give it exactly one of command, url, file or tools")
	case 1:
	default:
		return run.Source{}, fmt.Errorf("give exactly one target: command, url, file or tools (got %d: %s)", len(given), strings.Join(given, ", "))
	}
	t := s.opt.Target
	limits := t.Limits
	switch given[0] {
	case "command":
		argv, ok := c.args["command"].([]any)
		if !ok || len(argv) == 0 {
			return run.Source{}, errors.New(`command must be a non-empty array of strings, the program first: ["npx", "-y", "@modelcontextprotocol/server-everything"]`)
		}
		words := make([]string, len(argv))
		for i, w := range argv {
			if words[i], ok = w.(string); !ok {
				return run.Source{}, fmt.Errorf("command[%d] is not a string: every element of command is one argument", i)
			}
		}
		if len(words[0]) > maxArg {
			return run.Source{}, tooLong("command[0]", len(words[0]), "the program to start, such as npx")
		}
		if err := oneWord(words); err != nil {
			return run.Source{}, err
		}
		t.Location, t.Args = words[0], words[1:]
		return run.Source{Transport: "stdio", Target: t}, nil
	case "url":
		if n := len(c.str("url")); n > maxArg {
			return run.Source{}, tooLong("url", n, "the http(s) URL of a streamable HTTP MCP endpoint, such as https://example.com/mcp")
		}
		u, err := url.Parse(c.str("url"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return run.Source{}, fmt.Errorf("url %s is not an http(s) URL of a streamable HTTP MCP endpoint, such as https://example.com/mcp", quoted(c.str("url")))
		}
		t.Location = u.String()
		return run.Source{Transport: "http", Target: t}, nil
	case "file":
		if c.str("file") == "" {
			return run.Source{}, errors.New("file must be the path of a JSON file holding a tools/list result, an array of tools or a capture")
		}
		if err := checkFile(c.str("file")); err != nil {
			return run.Source{}, err
		}
		t.Location = c.str("file")
		return run.Source{Transport: "file", Target: t}, nil
	}
	raw, err := inline(c.args["tools"], limits, inlineTarget)
	if err != nil {
		return run.Source{}, err
	}
	surf, err := surface.Parse("inline tools", raw)
	if err != nil {
		return run.Source{}, fmt.Errorf("tools is not a tools/list result, an array of tools or a capture: %w", err)
	}
	if len(surf.Tools) > limits.MaxTools {
		// As a file target of as many tools is refused.
		return run.Source{}, fmt.Errorf("the inline tools hold %d tools, more than the %d a target may have: score the server itself (command or url), or start rubric mcp with a larger --max-tools", len(surf.Tools), limits.MaxTools)
	}
	return run.Source{Surface: surf, Name: "inline tools"}, nil
}

// oneWord refuses a command line given whole as the program, as in
// ["npx -y @modelcontextprotocol/server-everything"]: no shell splits
// it, so the start failed with "cannot start", as if npx were missing.
// A program whose path holds a space, and is found, is started.
func oneWord(words []string) error {
	found := func(p string) bool { _, err := exec.LookPath(p); return err == nil }
	meant, whole := transport.CommandLine(words[0], words[1:], found)
	if !whole {
		return nil
	}
	split, _ := json.Marshal(meant)
	return fmt.Errorf("command[0] is %s, a whole command line: command is an argument array, run without a shell, so give each argument as its own string: %s", quoted(words[0]), split)
}

// checkFile refuses a file target that is not there before the file
// transport reads it: the transport's words are rubric score's ("or --
// COMMAND to start the server"), and a client's agent, which does not
// know rubric mcp's working directory, must learn where a relative path
// was looked for.
func checkFile(name string) error {
	if len(name) > maxArg {
		return tooLong("file", len(name), "the path of a JSON file holding a tools/list result")
	}
	name = strings.TrimPrefix(name, "file://")
	fi, err := os.Stat(name)
	switch {
	case err == nil && !fi.IsDir():
		return nil // the transport reads it, and says what else is wrong
	case err == nil:
		return fmt.Errorf("file %s is a directory: give the path of a JSON file holding a tools/list result, or the tools inline as target.tools", quoted(name))
	case !errors.Is(err, fs.ErrNotExist):
		return nil
	}
	where := ""
	if !filepath.IsAbs(name) {
		if wd, err := os.Getwd(); err == nil {
			where = fmt.Sprintf(" (a relative path is read from rubric mcp's working directory, %s)", wd)
		}
	}
	return fmt.Errorf("file %s does not exist%s: give the path of a JSON file holding a tools/list result, best absolute, or the tools inline as target.tools", quoted(name), where)
}

// Advice of inline when a value is too large: an inline target can be
// read from its server instead, one tool definition cannot.
const (
	inlineTarget = "the inline tools JSON is %s, more than the %s a target may be: score the server itself (command or url), or start rubric mcp with a larger --max-bytes"
	inlineTool   = "the tool definition is %s of JSON, more than the %s a target may be: start rubric mcp with a larger --max-bytes"
)

// inline is the JSON of an inline value (a string holding JSON is taken
// as that JSON), refused beyond the limits of a read target with the
// message tooBigMsg (inlineTarget or inlineTool).
func inline(v any, limits transport.Limits, tooBigMsg string) ([]byte, error) {
	tooBig := func(n int64) error {
		return fmt.Errorf(tooBigMsg, transport.Sized(n), transport.Sized(limits.MaxBytes))
	}
	// Measured before encoding: a value far beyond the limit is refused
	// without being copied again.
	if n := sizeAtLeast(v); n > limits.MaxBytes {
		return nil, tooBig(n)
	}
	var raw []byte
	if s, ok := v.(string); ok {
		raw = []byte(s)
	} else {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	if int64(len(raw)) > limits.MaxBytes {
		return nil, tooBig(int64(len(raw)))
	}
	return raw, nil
}

// sizeAtLeast is a lower bound of the length of v's JSON: its strings'
// and keys' bytes.
func sizeAtLeast(v any) int64 {
	switch v := v.(type) {
	case string:
		return int64(len(v))
	case map[string]any:
		n := int64(0)
		for k, e := range v {
			n += int64(len(k)) + sizeAtLeast(e)
		}
		return n
	case []any:
		n := int64(0)
		for _, e := range v {
			n += sizeAtLeast(e)
		}
		return n
	}
	return 1
}

func (s *Server) score(ctx context.Context, c *call) (any, error) {
	src, err := s.source(c)
	if err != nil {
		return nil, err
	}
	ref := c.str("rubric")
	if ref == "" {
		ref = s.opt.DefaultRubric
	}
	r, err := s.findRubric(ctx, ref)
	if err != nil {
		return nil, err
	}
	sess, release := s.session(ctx, c, c.str("judge"))
	unused, err := sess.UnusedJudge(r) // a rubric that asks nothing starts no judge
	if err != nil {
		release(false)
		return nil, err
	}
	c.step(ctx, "reading the target and scoring its tools with "+r.Name)
	rep, err := sess.Scan(ctx, src, r, run.ScanOptions{})
	release(err == nil)
	var start *run.JudgeStartError
	switch {
	case err != nil && len(r.Questions) > 0 && errors.As(err, &start) && ctx.Err() == nil:
		return nil, &judgeless{err: err, advice: s.judgelessAdvice(ctx, r, c.str("judge"))}
	case err != nil:
		return nil, err
	}
	c.step(ctx, "scored")
	out, err := s.summary(rep)
	if err != nil {
		return nil, err
	}
	if unused != "" {
		out.Warnings = append(out.Warnings, unused)
	}
	return out, nil
}

// summaryOut is score's result.
type summaryOut struct {
	ReportID string        `json:"report_id"`
	Resource string        `json:"resource"`
	Target   string        `json:"target"`
	Rubric   report.Rubric `json:"rubric"`
	Score    *json.Number  `json:"score"`
	Grade    *string       `json:"grade"`
	NoScore  string        `json:"no_score,omitempty"`
	Tools    []toolOut     `json:"tools"`
	Warnings []string      `json:"warnings"`
}

type toolOut struct {
	Name   string      `json:"name"`
	Score  json.Number `json:"score"`
	Grade  string      `json:"grade"`
	Issues []issueOut  `json:"issues"`
}

type issueOut struct {
	Check   string `json:"check"`
	Message string `json:"message"`
	Gain    string `json:"gain,omitempty"`
}

// summary keeps rep and returns what score answers.
func (s *Server) summary(rep *report.Report) (*summaryOut, error) {
	id, err := s.reports.put(rep)
	if err != nil {
		return nil, err
	}
	out := &summaryOut{
		ReportID: id, Resource: reportURI + id, Target: rep.Target, Rubric: rep.Rubric,
		Score: rep.Score, Grade: rep.Grade, NoScore: rep.NoScore, Tools: []toolOut{}, Warnings: rep.Warnings,
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	for _, t := range rep.Tools {
		out.Tools = append(out.Tools, toolOf(t))
	}
	return out, nil
}

func toolOf(t report.Tool) toolOut {
	o := toolOut{Name: t.Name, Score: t.Score, Grade: t.Grade, Issues: []issueOut{}}
	is := append([]report.Issue(nil), t.Issues...)
	report.SortIssues(is)
	for _, i := range is {
		o.Issues = append(o.Issues, issueOut{Check: i.Check, Message: i.Message, Gain: i.Gain})
	}
	return o
}

// lintOut is lint_tool's result.
type lintOut struct {
	Tool       string       `json:"tool"`
	Results    []lintResult `json:"results"`
	Skipped    []string     `json:"skipped"`
	Suggestion suggestion   `json:"suggested_rewrite"`
	// Failed is set when a rubric could not score the tool (see
	// lintResult.Error): the result is then marked an error.
	Failed bool `json:"failed,omitempty"`
}

type lintResult struct {
	Rubric   string `json:"rubric"`
	Version  string `json:"version"`
	ReportID string `json:"report_id"`
	// Score is null when the rubric could not score the tool (Error).
	Score  *json.Number `json:"score"`
	Grade  string       `json:"grade"`
	Issues []issueOut   `json:"issues"`
	// Error, when set, says why the rubric could not score the tool:
	// the other rubrics' results stand, and the tool is not passed.
	Error string `json:"error,omitempty"`
}

type suggestion struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// hypothesis labels every suggested rewrite.
const hypothesis = "HYPOTHESIS, not a fact: each bracketed line asks for something the rubrics found missing; fill it in only with what the implementation really does, and check it against the code before using it"

func (s *Server) lint(ctx context.Context, c *call) (any, error) {
	def, ok := c.args["tool"].(map[string]any)
	if !ok {
		return nil, errors.New(`tool must be one tool definition as a JSON object: {"name": ..., "description": ..., "inputSchema": {...}}`)
	}
	if err := notQuoted(def); err != nil {
		return nil, err
	}
	raw, err := inline(map[string]any{"tools": []any{def}}, s.opt.Target.Limits, inlineTool)
	if err != nil {
		return nil, err
	}
	if _, ok := def["name"]; !ok {
		if _, list := def["tools"]; list {
			return nil, errors.New(`tool is a tools/list result, not one tool definition: give one of its tools, {"name": ..., "description": ..., "inputSchema": {...}}, or score the whole list with score and target {"tools": ...}`)
		}
	}
	surf, err := surface.Parse("tool", raw)
	var se *surface.Error
	if errors.As(err, &se) && strings.HasPrefix(se.Path, "$.tools[0]") {
		// The definition was parsed as the one tool of a list: its
		// paths are the client's tool argument's.
		return nil, fmt.Errorf("tool is not a valid tool definition: tool%s: %s", strings.TrimPrefix(se.Path, "$.tools[0]"), se.Msg)
	}
	if err != nil {
		return nil, fmt.Errorf("tool is not a valid tool definition: %w", err)
	}
	if n := len(s.opt.Lint); n > s.opt.MaxReports {
		// Refused before any work: the reports could not all be kept.
		return nil, fmt.Errorf("lint_tool keeps a report for each of its %d rubrics, but rubric mcp was started to keep %d (--max-reports): start it with --max-reports %d or more", n, s.opt.MaxReports, n)
	}
	name, _ := def["name"].(string)
	desc, _ := def["description"].(string)
	out := &lintOut{Tool: name, Results: []lintResult{}, Skipped: []string{}}
	sess, release := s.session(ctx, c, "")
	ok = false
	defer func() { release(ok) }()
	var missing []string
	var reps []*report.Report
	for _, ref := range s.opt.Lint {
		r, err := s.opt.Rubrics.Find(ctx, ref)
		if err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: %v", ref, err))
			continue
		}
		c.step(ctx, "linting with "+r.Name)
		rep, err := sess.Scan(ctx, run.Source{Surface: surf, Name: "lint_tool " + name}, r, run.ScanOptions{})
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%s: %w", r.Name, err)
			}
			// One rubric that cannot score the tool (a formula past its
			// cost limit, say) must not hide what the others found:
			// its result says it failed, and the call is an error.
			out.Results = append(out.Results, lintResult{Rubric: r.Name, Version: r.Version, Issues: []issueOut{}, Error: err.Error()})
			out.Failed = true
			continue
		}
		reps = append(reps, rep)
		res := lintResult{Rubric: r.Name, Version: r.Version, Issues: []issueOut{}}
		if len(rep.Tools) == 1 {
			t := toolOf(rep.Tools[0])
			score := t.Score
			res.Score, res.Grade, res.Issues = &score, t.Grade, t.Issues
			for _, i := range t.Issues {
				missing = append(missing, i.Message)
			}
		}
		out.Results = append(out.Results, res)
	}
	// Kept together once all are made: one at a time, the first could
	// be gone before the call returned its id.
	ids, err := s.reports.putAll(reps...)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		out.Results[i].ReportID = id
	}
	out.Suggestion = rewrite(desc, missing)
	ok = true
	return out, nil
}

// notQuoted refuses a definition whose inputSchema or annotations is a
// string holding a JSON object: a model that writes the call encodes the
// nested object a second time, and the rubrics would grade a tool
// without a schema (Schema Quality's F, "no inputSchema object"), a
// fault of the call rather than of the tool.
func notQuoted(def map[string]any) error {
	for _, k := range []string{"inputSchema", "annotations"} {
		str, ok := def[k].(string)
		if !ok {
			continue
		}
		var v map[string]any
		if json.Unmarshal([]byte(str), &v) == nil {
			return fmt.Errorf("tool.%s is a string holding a JSON object: give the object itself, not quoted; if the server really sends it as a string, that is the fault to fix, for clients read an object there", k)
		}
	}
	return nil
}

// rewrite is the description with a line to fill in for each issue: the
// rubrics say what is missing, never what the tool does.
func rewrite(desc string, missing []string) suggestion {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(desc))
	seen := map[string]bool{}
	for _, m := range missing {
		if seen[m] {
			continue
		}
		seen[m] = true
		// The message as written: %q would escape its own quotes.
		fmt.Fprintf(&b, "\n[TO VERIFY: address: %s]", m)
	}
	if len(seen) == 0 {
		return suggestion{Label: "no rewrite: no rubric found an issue", Description: strings.TrimSpace(desc)}
	}
	return suggestion{Label: hypothesis, Description: b.String()}
}

// explainOut is explain's result.
type explainOut struct {
	ReportID string `json:"report_id"`
	Subject  string `json:"subject"`
	Text     string `json:"arithmetic"`
	Agrees   bool   `json:"agrees"`
}

func (s *Server) explain(ctx context.Context, c *call) (any, error) {
	id := c.reportID()
	rep, err := s.reports.get(id)
	if err != nil {
		return nil, err
	}
	r, err := s.rubricOf(ctx, rep)
	if err != nil {
		return nil, err
	}
	req := explain.Request{Tool: c.str("tool"), Metric: c.str("metric")}
	if req.Tool != "" && req.Metric != "" {
		return nil, errors.New("give tool or metric, not both: explain shows one score's arithmetic at a time")
	}
	subject := "the overall score"
	switch {
	case req.Tool != "":
		subject = "tool " + req.Tool
	case req.Metric != "":
		subject = "metric " + req.Metric
	}
	var buf bytes.Buffer
	err = explain.Write(ctx, &buf, r, rep, req)
	var dis *explain.DisagreeError
	if err != nil && !errors.As(err, &dis) {
		return nil, err
	}
	return &explainOut{ReportID: id, Subject: subject, Text: buf.String(), Agrees: dis == nil}, nil
}

// rubricOf loads the rubric rep was scored with, refusing one whose
// digest has changed since.
func (s *Server) rubricOf(ctx context.Context, rep *report.Report) (*rubric.Rubric, error) {
	ref := rep.Rubric.File
	if ref == "" {
		ref = rep.Rubric.Name
	}
	r, err := s.findRubric(ctx, ref)
	if err != nil {
		return nil, err
	}
	if r.Digest != rep.Rubric.Digest {
		return nil, fmt.Errorf("the report was scored with %s digest %s, but %s now has digest %s: score again to explain the new numbers", rep.Rubric.Name, rep.Rubric.Digest, ref, r.Digest)
	}
	return r, nil
}

// rescoreOut is rescore's result.
type rescoreOut struct {
	Old   side        `json:"old"`
	New   side        `json:"new"`
	Tools []toolDelta `json:"tools"`
}

type side struct {
	ReportID string        `json:"report_id"`
	Rubric   report.Rubric `json:"rubric"`
	Score    *json.Number  `json:"score"`
	Grade    *string       `json:"grade"`
}

type toolDelta struct {
	Name     string      `json:"name"`
	OldScore json.Number `json:"old_score"`
	OldGrade string      `json:"old_grade"`
	NewScore json.Number `json:"new_score"`
	NewGrade string      `json:"new_grade"`
}

func (s *Server) rescore(ctx context.Context, c *call) (any, error) {
	id := c.reportID()
	old, err := s.reports.get(id)
	if err != nil {
		return nil, err
	}
	r, err := s.findRubric(ctx, c.str("rubric"))
	if err != nil {
		return nil, err
	}
	surf, err := surface.Parse("the report's embedded surface", old.Embedded)
	if err != nil {
		return nil, err
	}
	o := s.opt.Run
	o.Plugins = nil // nothing is started: the report's answers are the observations
	sess := run.New(o)
	defer sess.Close()
	c.step(ctx, "rescoring with "+r.Name)
	rep, err := sess.Scan(ctx, run.Source{Surface: surf, Name: old.Target}, r, run.ScanOptions{Answers: old})
	if err != nil {
		return nil, err
	}
	nid, err := s.reports.put(rep)
	if err != nil {
		return nil, err
	}
	out := &rescoreOut{
		Old:   side{ReportID: id, Rubric: old.Rubric, Score: old.Score, Grade: old.Grade},
		New:   side{ReportID: nid, Rubric: rep.Rubric, Score: rep.Score, Grade: rep.Grade},
		Tools: []toolDelta{},
	}
	before := map[string]report.Tool{}
	for _, t := range old.Tools {
		before[t.Name] = t
	}
	for _, t := range rep.Tools {
		b := before[t.Name]
		out.Tools = append(out.Tools, toolDelta{Name: t.Name, OldScore: b.Score, OldGrade: b.Grade, NewScore: t.Score, NewGrade: t.Grade})
	}
	return out, nil
}

// rubricsOut is the rubrics tool's result.
type rubricsOut struct {
	Rubrics []rubricInfo `json:"rubrics"`
}

type rubricInfo struct {
	Name     string      `json:"name"`
	Version  string      `json:"version"`
	Title    string      `json:"title"`
	Digest   string      `json:"digest"`
	Resource string      `json:"resource,omitempty"`
	Checks   []checkInfo `json:"checks"`
	// AsksJudge and Questions say whether the rubric asks a judge, and
	// what: a client choosing a rubric for a run without a judge (or
	// without a model's) cannot tell otherwise.
	AsksJudge bool           `json:"asks_judge"`
	Questions []questionInfo `json:"questions"`
}

type questionInfo struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Per  string `json:"per"`
}

type checkInfo struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Points string `json:"points"`
}

// rubricURI is the resource a built-in rubric's text is read from.
const rubricURI = "rubric://rubrics/"

func (s *Server) rubrics(ctx context.Context, c *call) (any, error) {
	out := &rubricsOut{Rubrics: []rubricInfo{}}
	names := s.opt.Rubrics.Builtins
	switch ref := c.str("rubric"); ref {
	case "":
		return nil, errors.New(`give rubric: "all" for every built-in rubric, or one name or .hcl path`)
	case "all":
	default:
		names = []string{ref}
	}
	for _, n := range names {
		r, err := s.findRubric(ctx, n)
		if err != nil {
			return nil, err
		}
		info := rubricInfo{Name: r.Name, Version: r.Version, Title: r.Title, Digest: r.Digest, Checks: []checkInfo{}}
		if slices.Contains(s.opt.Rubrics.Builtins, n) {
			info.Resource = rubricURI + n
		}
		for _, ch := range r.Checks {
			info.Checks = append(info.Checks, checkInfo{Name: ch.Name, Title: ch.Title, Points: ch.Points.String()})
		}
		info.AsksJudge, info.Questions = len(r.Questions) > 0, []questionInfo{}
		for _, q := range r.Questions {
			info.Questions = append(info.Questions, questionInfo{Name: q.Name, Kind: q.Kind, Per: q.Per})
		}
		out.Rubrics = append(out.Rubrics, info)
	}
	return out, nil
}

// judgeless is a score call whose rubric asks a judge questions, and
// whose judge did not start: worded adds advice, which names the
// built-in rubrics that need no judge.
type judgeless struct {
	err    error
	advice string
}

func (e *judgeless) Error() string { return e.err.Error() + e.advice }
func (e *judgeless) Unwrap() error { return e.err }

// judgelessAdvice says, of the rubric r whose judge (the call's judge
// argument ref) did not start, what a client can do instead: leave the
// judge out, for the offline default, and score with a built-in rubric
// that asks no question, named.
func (s *Server) judgelessAdvice(ctx context.Context, r *rubric.Rubric, ref string) string {
	var none []string
	for _, n := range s.opt.Rubrics.Builtins {
		if b, err := s.findRubric(ctx, n); err == nil && len(b.Questions) == 0 {
			none = append(none, n)
		}
	}
	var ways []string
	if ref != "" {
		ways = append(ways, "leave judge out for the default, the offline "+run.DefaultJudge+" judge")
	}
	if len(none) > 0 {
		ways = append(ways, "score with a rubric that asks no question and needs no judge: "+strings.Join(none, ", ")+" (the rubrics tool says which rubrics ask a judge)")
	}
	if len(ways) == 0 {
		return ""
	}
	return fmt.Sprintf("; the rubric %s asks a judge questions, and needs a judge that starts: %s", r.Name, strings.Join(ways, ", or "))
}

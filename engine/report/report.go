// Package report is the record of one scoring run: what was scored, with
// which rubric, every observation and every score, exact and rounded.
//
// A Report is written as versioned JSON (its JSON Schema is
// report.schema.json beside this file) and embeds the surface it scored, so
// that rescoring and explaining need nothing else. Writers for people and
// tools live in the sub-packages.
package report

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/jsonpos"
)

// Version is the version of the report format; it changes when a field
// that scripts rely on changes meaning or goes away.
const Version = 1

// Report is the result of scoring one surface with one rubric.
type Report struct {
	ReportVersion int       `json:"report_version"`
	Generator     Generator `json:"generator"`
	Rubric        Rubric    `json:"rubric"`
	Target        string    `json:"target"`
	// Origin says where the target is, for writers that point into
	// files (SARIF locations); nil when the report does not say.
	Origin  *Origin `json:"origin,omitempty"`
	Surface Surface `json:"surface"`
	// Complete is false when scoring could not finish; such a report has
	// no scores and says why in Warnings. A report whose rubric scored
	// the tools it could (min_scored) is complete: UnscoredTools lists
	// the others, and its scores are of the tools scored.
	Complete bool `json:"complete"`
	// Score is the overall score rounded as the rubric says, Exact the same
	// value as an exact fraction; both are null when there is nothing to
	// score (NoScore says why).
	Score   *json.Number `json:"score"`
	Exact   *string      `json:"exact"`
	Grade   *string      `json:"grade"`
	NoScore string       `json:"no_score,omitempty"`
	Metrics []Metric     `json:"metrics,omitempty"`
	// Fixes says what the issues' gains count; nil for a report of a
	// rubric without a fixes block (or written before there were gains).
	Fixes *Fixes `json:"fixes,omitempty"`
	// Notes are what a reader of the headline must know to read it, such
	// as why the overall grade is above or below every tool's.
	Notes []string `json:"notes,omitempty"`
	// Sections are the rubric's own top-level members (its surface report
	// blocks), written between the metrics and the tools.
	Sections []Field `json:"-"`
	Tools    []Tool  `json:"tools"`
	// Unscored are the tools left unscored by a rubric that scores the
	// tools it could (its min_scored), in tool order; Tools and the
	// surface's formulas hold the others. Empty when every tool was
	// scored. A gate is INVALID on any.
	UnscoredTools []UnscoredTool `json:"unscored,omitempty"`
	// Judge identifies the model that answered questions; null when the
	// rubric asks none.
	Judge *Judge `json:"judge"`
	// Answers are the observations of questions about the whole surface
	// (and its items); each tool keeps its own.
	Answers  []Observation `json:"answers,omitempty"`
	Calls    Calls         `json:"calls"`
	Warnings []string      `json:"warnings"`
	Timings  Timings       `json:"timings"`
	// Embedded is the scored surface in a shape the file transport reads.
	// A report read from a file holds it here; a report just scored holds
	// the surface itself (see Embed) and writes it out only when written.
	Embedded json.RawMessage `json:"embedded_surface"`
	// Gate is the exact value the rubric's gate compares (the overall
	// score unless its gate block names another), nil when there is none
	// for this surface. It is for rubric gate, and not written.
	Gate *string `json:"-"`
	// Explain, when set, gives the arithmetic of one tool's score, as
	// rubric explain --tool prints it, for a writer that shows it (HTML).
	// The command line sets it, knowing the rubric; it is not written.
	Explain func(tool string) (string, error) `json:"-"`

	surface *surface.Surface
}

// Embed records the scored surface, to be written as embedded_surface.
func (r *Report) Embed(s *surface.Surface) { r.surface = s }

// Origin is where a report's target was read: a file, a command started
// in a directory, or an endpoint.
type Origin struct {
	// Kind is "file", "command" or "endpoint", what the transport's
	// target names.
	Kind string `json:"kind"`
	// Path is the file read, as given (relative to the directory rubric
	// ran in), for kind "file"; "" for standard input.
	Path string `json:"path,omitempty"`
	// Dir is the directory a command was started in, as given; "" for
	// the directory rubric ran in.
	Dir string `json:"dir,omitempty"`
	// Paths are, for kind "command", the command's program and arguments
	// that name a file or folder below Dir, as given (go run
	// ./servers/notes gives ./servers/notes): where the server's source
	// likely is, which a writer looks in first.
	Paths []string `json:"paths,omitempty"`
}

// Origin kinds.
const (
	OriginFile     = "file"
	OriginCommand  = "command"
	OriginEndpoint = "endpoint"
)

// Generator names the program that wrote the report.
type Generator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Rubric identifies the rubric a report was scored with.
type Rubric struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
	Title   string `json:"title,omitempty"`
	File    string `json:"file,omitempty"`
	Round   int    `json:"round"`
	// Maxima are the most the rubric's own report values can be, as its
	// report blocks' max blocks declare them: what a reader draws a value
	// against (a bar). Nil when the rubric declares none; a value without
	// a maximum is drawn against none.
	Maxima *Maxima `json:"maxima,omitempty"`
}

// Maxima are the declared maxima of a rubric's report values, exact, by
// member name. The maximum of a value that is an object of numbers (a
// tool's scores by dimension) holds for each number in it.
type Maxima struct {
	// Tool are the maxima of the members of each tool's entry.
	Tool map[string]string `json:"tool,omitempty"`
	// Surface are the maxima of the values of each of the report's own
	// top-level members (a rubric's named report block), by member, then
	// value.
	Surface map[string]map[string]string `json:"surface,omitempty"`
}

// ToolMax is the declared maximum of the member name of a tool's entry,
// "" when there is none.
func (r Rubric) ToolMax(name string) string {
	if r.Maxima == nil {
		return ""
	}
	return r.Maxima.Tool[name]
}

// SurfaceMax is the declared maximum of the value name of the report's
// member section, "" when there is none.
func (r Rubric) SurfaceMax(section, name string) string {
	if r.Maxima == nil {
		return ""
	}
	return r.Maxima.Surface[section][name]
}

// Surface identifies what was scored.
type Surface struct {
	Hash      string         `json:"hash"`
	ToolCount int            `json:"tool_count"`
	Format    string         `json:"format,omitempty"`
	Source    string         `json:"source,omitempty"`
	Server    map[string]any `json:"server,omitempty"`
}

// Metric is a named value a rubric computes; numbers carry their exact form.
type Metric struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	Exact string `json:"exact,omitempty"`
}

// Tool is one tool's results.
type Tool struct {
	Name    string      `json:"name"`
	Hash    string      `json:"hash"`
	Score   json.Number `json:"score"`
	Exact   string      `json:"exact"`
	Grade   string      `json:"grade"`
	Metrics []Metric    `json:"metrics,omitempty"`
	Checks  []Check     `json:"checks"`
	Issues  []Issue     `json:"issues"`
	// Answers are the observations of questions about this tool.
	Answers []Observation `json:"answers,omitempty"`
	// Fields are the rubric's own members of the tool's entry (its tool
	// report block), written after the members above.
	Fields []Field `json:"-"`
}

// Field is a named value a rubric writes into a report.
type Field struct {
	Name  string
	Value any
}

// JSON returns the field's value as JSON: as recorded when it is raw
// JSON already (a value a report read back), else encoded.
func (f Field) JSON() (json.RawMessage, error) {
	if raw, ok := f.Value.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(f.Value)
}

// Observation is a judge's answer to one question, with its provenance.
type Observation struct {
	Question       string          `json:"question"`
	Kind           string          `json:"kind"`
	Subject        string          `json:"subject"`
	QuestionDigest string          `json:"question_digest"`
	InputHash      string          `json:"input_hash"`
	Answer         json.RawMessage `json:"answer"`
	Model          string          `json:"model"`
	Tokens         Tokens          `json:"tokens"`
	Cached         bool            `json:"cached,omitempty"`
	Attempts       int             `json:"attempts"`
	// PromptBytes is the UTF-8 length of the prompts as rendered (system
	// and user), for estimating the cost of answers whose judge reported
	// no tokens.
	PromptBytes int `json:"prompt_bytes,omitempty"`
	// Counted, when the judge reported no tokens, is what the prompts and
	// the answer come to in an offline tokenizer, counted when the
	// question was asked; absent from observations recorded before
	// rubric counted them, whose cost is then estimated from PromptBytes.
	Counted *CountedTokens `json:"counted_tokens,omitempty"`
	// Unreadable, when set, says why no answer could be read after the
	// question's retries; Answer is then null and the tool it is about
	// was left unscored (see Report.UnscoredTools).
	Unreadable string `json:"unreadable,omitempty"`
}

// CountedTokens is an answer's cost counted offline.
type CountedTokens = judge.CountedTokens

// UnscoredTool is a tool a rubric that scores some of the tools (its
// min_scored) left unscored: its name, hash, why, and the observations
// asked about it, the unreadable one among them.
type UnscoredTool struct {
	Name    string        `json:"name"`
	Hash    string        `json:"hash"`
	Reason  string        `json:"reason"`
	Answers []Observation `json:"answers,omitempty"`
}

// Tokens counts a judge's usage.
type Tokens = judge.Tokens

// Check is one static check's observation of one tool.
type Check struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Points string `json:"points"`
	// Credit is the fraction earned, exact: 1 passed, 0 failed, passed/total
	// for a check over items, 1 when there are no items.
	Credit string `json:"credit"`
	// Passed and Total count the items of a check over items.
	Passed int `json:"passed"`
	Total  int `json:"total"`
	// Items is false for a check of the whole tool.
	Items bool `json:"items"`
	// Failed names the items that failed.
	Failed  []string `json:"failed,omitempty"`
	Skipped bool     `json:"skipped,omitempty"`
	// Error is set when the check could not be evaluated.
	Error string `json:"error,omitempty"`
}

// Issue is one thing to fix in one tool.
type Issue struct {
	Check string `json:"check"`
	// Title is the title the rubric gives Check when Check is not a check
	// block (an issue of the tool's issues formula), for fix lists; ""
	// when it gives none (a check block's is in the tool's checks).
	Title   string   `json:"title,omitempty"`
	Message string   `json:"message"`
	Params  []string `json:"params"`
	// Points is the weight the rubric gave the issue (a check's points).
	Points string `json:"points"`
	// Gain is what fixing the issue would earn, exact, in the unit of the
	// report's fixes; a fix list is sorted by it. "" in a report written
	// before gains, whose readers fall back on Points.
	Gain string `json:"gain,omitempty"`
	// Moves is how much the overall value the fixes name moves when this
	// issue is fixed, exact; "" when the rubric does not say.
	Moves string `json:"moves,omitempty"`
	// Severity is how grave the rubric says the issue is, one of
	// Severities, for security findings; "" when it does not say.
	Severity string `json:"severity,omitempty"`
}

// Severities are the severities an issue may carry, gravest first.
var Severities = []string{"critical", "high", "medium", "low"}

// ValidSeverity reports whether s is one of Severities.
func ValidSeverity(s string) bool { return slices.Contains(Severities, s) }

// Fixes is what a report's fix list counts in.
type Fixes struct {
	// Unit names what a gain counts, such as "TDQS points of the tool".
	Unit string `json:"unit"`
	// Overall names the value Moves is the change of, such as "meanTdqs".
	Overall string `json:"overall,omitempty"`
}

// Judge identifies a judge (filled in by judge-backed rubrics).
type Judge struct {
	judge.Identity
	// SHA256 is the plugin binary's hash, for an external plugin.
	SHA256 string `json:"sha256,omitempty"`
	// Labels are the rubric's judge labels (versions of its task generator
	// or prompt templates), written as members of the judge block itself.
	Labels map[string]string `json:"-"`
}

// Short names the judge configuration in one line: plugin, version,
// model, and the first 12 digits of the binary's hash when it has one;
// "none" for no judge. Rankings and leaderboards use it to say which
// configuration answered.
func (j *Judge) Short() string {
	if j == nil {
		return "none"
	}
	s := j.Plugin + " " + j.Version
	if j.Model != "" {
		s += " " + j.Model
	}
	if j.SHA256 != "" {
		s += " sha256:" + j.SHA256[:min(12, len(j.SHA256))]
	}
	return s
}

// judgeFields is Judge without its labels, for encoding.
type judgeFields struct {
	judge.Identity
	SHA256 string `json:"sha256,omitempty"`
}

// MarshalJSON writes the identity, then each label as a member beside it.
func (j Judge) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(judgeFields{j.Identity, j.SHA256})
	if err != nil || len(j.Labels) == 0 {
		return b, err
	}
	labels := make([]Field, 0, len(j.Labels))
	for _, k := range slices.Sorted(maps.Keys(j.Labels)) {
		labels = append(labels, Field{Name: k, Value: j.Labels[k]})
	}
	return appendMembers(b, labels)
}

// UnmarshalJSON reads the identity from its members, spelled exactly, and
// every other string member as a label (so a label can never stand in
// for a member of the identity, as encoding/json's case-blind matching
// would let it).
func (j *Judge) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	own := map[string]json.RawMessage{}
	for _, k := range judge.BlockMembers {
		if v, ok := all[k]; ok {
			own[k] = v
			delete(all, k)
		}
	}
	ob, err := json.Marshal(own)
	if err != nil {
		return err
	}
	var f judgeFields
	if err := json.Unmarshal(ob, &f); err != nil {
		return err
	}
	*j = Judge{Identity: f.Identity, SHA256: f.SHA256}
	for k, raw := range all {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		if j.Labels == nil {
			j.Labels = map[string]string{}
		}
		j.Labels[k] = v
	}
	return nil
}

// Calls counts the questions of a run: how many there were, the judge
// calls made for them (Model: the replies the judge gave, readable or not,
// retries included), the answers read from the cache, and the tokens
// spent. RateLimited counts apart the requests the provider turned away
// for now (a rate limit, a server error) and that were asked again, and
// Unanswered the batch items it never answered (the batch expired or was
// cancelled first, or the provider failed the item): neither is a call. CachedInputTokens and UncachedInputTokens split
// InputTokens into those the provider read from its prompt cache and the
// rest; both are nil when no input tokens were counted.
type Calls struct {
	Model        int `json:"model"`
	CacheHits    int `json:"cache_hits"`
	Tokens       int `json:"tokens"`
	Questions    int `json:"questions,omitempty"`
	Retries      int `json:"retries,omitempty"`
	RateLimited  int `json:"rate_limited,omitempty"`
	Unanswered   int `json:"unanswered,omitempty"`
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`
	// CachedInputTokens are the input tokens read from the provider's
	// prompt cache, billed at its cached price.
	CachedInputTokens *int `json:"cached_input_tokens,omitempty"`
	// UncachedInputTokens are the rest of InputTokens.
	UncachedInputTokens *int `json:"uncached_input_tokens,omitempty"`
	// Cost is what the calls cost, when the model's price is known.
	Cost *Cost `json:"cost,omitempty"`
}

// Cost is what a run's judge calls cost.
type Cost struct {
	// USD is in US dollars, reckoned from the tokens the judge reported.
	USD float64 `json:"usd"`
	// Prices names the price table: its date and source.
	Prices string `json:"prices"`
}

// Timings are in milliseconds.
type Timings struct {
	ReadMS  float64 `json:"read_ms"`
	ScoreMS float64 `json:"score_ms"`
}

// Marshal returns the report as Write writes it.
func Marshal(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write streams the report as JSON: the top-level members indented, one
// line per tool, and the embedded surface on one line, so that a report of
// a hundred thousand tools is written without being built in memory twice.
func Write(w io.Writer, r *Report) error {
	head := *r
	head.Tools, head.Embedded, head.surface = nil, nil, nil
	var hb bytes.Buffer
	enc := json.NewEncoder(&hb)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	// The placeholders are top-level members: two spaces deep, and nothing
	// nested (server information included) is indented that little.
	const toolsKey, embedKey = "\n  \"tools\": null", "\n  \"embedded_surface\": null"
	text := hb.String()
	ti, ei := strings.Index(text, toolsKey), strings.Index(text, embedKey)
	if ti < 0 || ei < ti {
		return fmt.Errorf("report layout: members out of the expected order")
	}
	bw, buffered := w.(*bufio.Writer) // an atomic file's writer is one already
	if !buffered {
		bw = bufio.NewWriterSize(w, 1<<16)
	}
	bw.WriteString(text[:ti])
	for _, f := range r.Sections {
		b, err := encode(f.Value, "  ")
		if err != nil {
			return fmt.Errorf("report member %q: %w", f.Name, err)
		}
		// text[:ti] ends with the comma after the member before tools.
		bw.WriteString("\n  ")
		bw.Write(quote(f.Name))
		bw.WriteString(": ")
		bw.Write(b)
		bw.WriteByte(',')
	}
	bw.WriteString("\n  \"tools\": [")
	if err := writeTools(bw, r.Tools, runtime.GOMAXPROCS(0)); err != nil {
		return err
	}
	if len(r.Tools) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]")
	bw.WriteString(text[ti+len(toolsKey) : ei])
	bw.WriteString("\n  \"embedded_surface\": ")
	switch {
	case r.surface != nil:
		if _, err := r.surface.WriteTo(bw); err != nil {
			return err
		}
	case len(r.Embedded) > 0:
		bw.Write(r.Embedded)
	default:
		bw.WriteString("null")
	}
	bw.WriteString(text[ei+len(embedKey):])
	return bw.Flush()
}

// toolsChunk is how many tools' lines one goroutine writes at a time.
// Each goroutine's buffer holds one chunk's lines and is reused for its
// next chunk: 64 lines of a TDQS report are about 300 KB, where 512 were
// a few MB of fresh memory a write, each page of it faulted in once.
const toolsChunk = 64

// writeTools writes each tool's line, after a comma but for the first:
// a large report's lines are written on up to cores goroutines, a window
// of chunks at a time, and copied out in order, the same bytes as one
// after the other (at 100,000 tools the lines are about a tenth of a
// score's CPU, and the one thing it did on one core). A tool that cannot
// be written ends its chunk: what comes before it is written, as one
// after the other would have, and its error returned.
func writeTools(bw *bufio.Writer, tools []Tool, cores int) error {
	workers := max(1, min(cores, (len(tools)+toolsChunk-1)/toolsChunk))
	chunks := make([]toolLines, workers)
	for lo := 0; lo < len(tools); lo += workers * toolsChunk {
		var wg sync.WaitGroup
		for k := range chunks {
			start := lo + k*toolsChunk
			if start >= len(tools) {
				chunks[k].buf, chunks[k].err = chunks[k].buf[:0], nil
				continue
			}
			part := tools[start:min(start+toolsChunk, len(tools))]
			if workers == 1 {
				chunks[k].write(part, start)
				continue
			}
			wg.Go(func() { chunks[k].write(part, start) })
		}
		wg.Wait()
		for k := range chunks {
			bw.Write(chunks[k].buf)
			if err := chunks[k].err; err != nil {
				return err
			}
		}
	}
	return nil
}

// toolLines are the lines of a run of tools, written by one goroutine,
// and the error of the tool that ended them.
type toolLines struct {
	buf []byte
	err error
}

// write writes the lines of tools, the first of which is the report's
// tool number first, each after its separator.
func (c *toolLines) write(tools []Tool, first int) {
	c.buf, c.err = c.buf[:0], nil
	for i := range tools {
		if first+i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = append(c.buf, "\n    "...)
		start := len(c.buf)
		line, err := appendTool(c.buf, &tools[i])
		if fs := tools[i].Fields; err == nil && len(fs) > 0 {
			// The line is the buffer's last bytes: its members go on in
			// place, not through a copy of the line.
			var full []byte
			if full, err = appendMembersAt(line, start, fs); err != nil {
				err = fmt.Errorf("tool %q, %w", tools[i].Name, err)
			} else {
				line = full
			}
		}
		if err != nil {
			c.buf, c.err = line[:start], err
			return
		}
		if i == 0 && len(tools) > 1 && cap(line) < len(line)*len(tools) {
			// The first chunk's buffer is grown once to about what its
			// tools need, not doubled up to it line by line.
			line = slices.Grow(line, (len(line)-start+6)*(len(tools)-1)*5/4)
		}
		c.buf = line
	}
}

// Read loads a report written by WriteFile, refusing one larger than
// boundedread.Limit() (--max-file-size).
func Read(path string) (*Report, error) {
	return ReadContext(context.Background(), path, boundedread.Limit())
}

// ReadContext is Read with a size limit of max bytes (the CLI's
// --max-file-size) and a context that ends the read.
func ReadContext(ctx context.Context, path string, max int64) (*Report, error) {
	b, err := boundedread.ReadFile(ctx, path, max)
	if err != nil {
		return nil, boundedread.Named(err, "report", path, "give the path of a JSON report, as rubric score --json FILE writes one")
	}
	return parse(path, b)
}

// parse reads a report's bytes; path names them in errors.
func parse(path string, b []byte) (*Report, error) {
	var r Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	err := dec.Decode(&r)
	if (err != nil || r.ReportVersion != Version) && answersFile(b) {
		return nil, fmt.Errorf("%s: not a rubric report but %s", path, strings.ReplaceAll(answersMore, "<path>", path))
	}
	if err != nil {
		de := jsonpos.Decoding(path, b, err)
		return nil, fmt.Errorf("%s: not a rubric report: %s (a report is the JSON that rubric score --json FILE writes)", de.Where(), de.Msg)
	}
	if r.ReportVersion != Version {
		if what := notReport(b); what != "" {
			return nil, fmt.Errorf("%s: not a rubric report but %s", path, strings.ReplaceAll(what, "<path>", path))
		}
		return nil, fmt.Errorf("%s: report version %d, this rubric reads version %d", path, r.ReportVersion, Version)
	}
	if len(r.Embedded) == 0 {
		return nil, fmt.Errorf("%s: the report embeds no surface, so it cannot be rescored or explained", path)
	}
	return &r, nil
}

// answersMore says what an answers file is to a reader that wanted a
// report; <path> is the file's path.
const answersMore = "an answers file (one judge's answer a line, as --record writes): score with its answers, asking no judge, with rubric score --judge replay --answers <path> TARGET"

// answersFile says whether b is an answers file, which --record writes
// and the replay judge reads: JSON objects one a line, each with a kind
// and an answer, with blank lines and # comments between them. Its first
// object decides, so that a reader wanting a report can say what it was
// given rather than "report version 0" (the first line read as a report
// without one) or a syntax error at a comment.
func answersFile(b []byte) bool {
	for line := range bytes.Lines(b) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var members map[string]json.RawMessage
		if json.Unmarshal(line, &members) != nil {
			return false
		}
		_, kind := members["kind"]
		_, answer := members["answer"]
		_, version := members["report_version"]
		return kind && answer && !version
	}
	return false
}

// others are the documents rubric writes beside its reports, by the
// member each has and a report has not: what each is called (name), and
// what more to say of it to a reader that wanted a report (more; <path>
// is the file's path).
var others = []struct{ key, name, more string }{
	{"servers_version", "a servers document (rubric score --config-file)", ", which holds each server's report in servers[].report and the installed set's in set: take one out (jq .set <path> > report.json), or score one server with --server NAME"},
	{"gate_version", "a gate report (rubric gate)", "; its base's and head's reports are the score reports beside it"},
	{"leaderboard_version", "a scan's leaderboard (rubric scan)", "; rescore the scan's directory itself (rubric rescore DIR --rubric ...), which reads the servers' current reports under DIR/reports"},
	{"scan_version", "a scan's record (rubric scan)", "; rescore the scan's directory itself (rubric rescore DIR --rubric ...), which reads the servers' current reports under DIR/reports"},
	{"failed_version", "the record of a run that could not complete (failed.json)", ", which wrote no report"},
	{"calibration_version", "a calibration record (rubric calibrate)", ""},
	{"lock_version", "a lock file (rubric lock)", ""},
	{"runs", "a SARIF log", "; the JSON report is written by --format json"},
	{"tools", "a capture of a server's tools", ": score it with rubric score <path>"},
}

// notReport says what the JSON document b is when it has no
// report_version, "" when it has one: a document of rubric's own is
// named, anything else is no report at all, which "report version 0"
// would not say.
func notReport(b []byte) string {
	switch kind, i := documentKind(b, "report_version"); kind {
	case kindOther:
		return others[i].name + others[i].more
	case kindUnknown:
		return "a JSON object without report_version; rubric score --format json (or --json report.json) writes a report"
	}
	return ""
}

// Other names the document of rubric's that the JSON object b is when
// it lacks the member key that marks the kind its reader wants ("a score
// report (rubric score)", "a gate report (rubric gate)", ...): a reader
// given the wrong kind of file says what it was given rather than
// "version 0". A JSON object of none of rubric's kinds is "a JSON object
// none of rubric's commands writes"; b that has key, or is no JSON
// object, gives "".
func Other(b []byte, key string) string {
	switch kind, i := documentKind(b, key); kind {
	case kindReport:
		return "a score report (rubric score)"
	case kindOther:
		return others[i].name
	case kindUnknown:
		return "a JSON object none of rubric's commands writes"
	}
	return ""
}

// The kinds of JSON document documentKind tells apart.
const (
	kindWanted  = iota // the kind the reader wants, or no JSON object
	kindReport         // a score report
	kindOther          // one of others
	kindUnknown        // a JSON object of none of rubric's kinds
)

// documentKind says what b is to a reader that wants the member key:
// kindWanted when b has it (or is no JSON object), else a report, one of
// others (at index i), or none of rubric's.
func documentKind(b []byte, key string) (kind, i int) {
	var members map[string]json.RawMessage
	if json.Unmarshal(b, &members) != nil {
		return kindWanted, 0
	}
	if _, ok := members[key]; ok {
		return kindWanted, 0
	}
	if _, ok := members["report_version"]; ok {
		return kindReport, 0
	}
	for i, o := range others {
		if _, ok := members[o.key]; ok {
			return kindOther, i
		}
	}
	return kindUnknown, 0
}

// appendKey appends s quoted as quote quotes it (HTML escaped), without
// allocating for a name with nothing to escape.
func appendKey(dst []byte, s string) []byte {
	if strings.ContainsAny(s, "<>&") {
		return append(dst, quote(s)...)
	}
	return appendMember(dst, "", s)
}

func quote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// encode writes v as JSON without escaping HTML: on one line when prefix
// is "", else indented as the report's top-level members are, each line
// after the first starting with prefix.
func encode(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if prefix != "" {
		enc.SetIndent(prefix, "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// appendMembers writes fs, in order, as members of the JSON object obj
// after its own, in a new slice: a judge's labels, a section.
func appendMembers(obj []byte, fs []Field) ([]byte, error) {
	return appendMembersAt(slices.Clip(obj), 0, fs) // append copies
}

// appendMembersAt writes fs, in order, as members of the JSON object that
// is buf[start:], after its own, in place: a tool's rubric fields. On an
// error, buf[start:] may have been written over; buf[:start] never is.
func appendMembersAt(buf []byte, start int, fs []Field) ([]byte, error) {
	out := buf[:len(buf)-1] // without the closing brace
	for _, f := range fs {
		b, ok := f.Value.(json.RawMessage)
		if !ok || !compactJSON(b) {
			var err error
			if b, err = encode(f.Value, ""); err != nil {
				return nil, fmt.Errorf("member %q: %w", f.Name, err)
			}
		}
		if len(out)-start > 1 {
			out = append(out, ',')
		}
		out = append(appendKey(out, f.Name), ':')
		out = append(out, b...)
	}
	return append(out, '}'), nil
}

// Fields is a group of named values that keeps its order in JSON.
type Fields []Field

// MarshalJSON writes the fields as an object, in order.
func (fs Fields) MarshalJSON() ([]byte, error) { return appendMembers([]byte("{}"), fs) }

// Scalars returns the members of a section (a rubric's report block) that
// are single values, a number, a string or a boolean, as name and text in
// order; maps, lists and nulls are left out, as are members of a section
// read back from a file.
func (f Field) Scalars() [][2]string {
	fields, ok := f.Value.(Fields)
	if !ok {
		return nil
	}
	var out [][2]string
	for _, m := range fields {
		raw, ok := m.Value.(json.RawMessage)
		if !ok || len(raw) == 0 || raw[0] == '{' || raw[0] == '[' || string(raw) == "null" {
			continue
		}
		text := string(raw) // a number or a boolean, as written: exact
		if raw[0] == '"' {
			if json.Unmarshal(raw, &text) != nil {
				continue
			}
		}
		out = append(out, [2]string{m.Name, text})
	}
	return out
}

// Observations yields every judge's answer in the report: each tool's, in
// tool order, then the surface's.
func (r *Report) Observations() iter.Seq[Observation] {
	return func(yield func(Observation) bool) {
		for _, t := range r.Tools {
			for _, o := range t.Answers {
				if !yield(o) {
					return
				}
			}
		}
		for _, t := range r.UnscoredTools {
			for _, o := range t.Answers {
				if !yield(o) {
					return
				}
			}
		}
		for _, o := range r.Answers {
			if !yield(o) {
				return
			}
		}
	}
}

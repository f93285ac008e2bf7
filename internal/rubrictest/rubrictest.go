// Package rubrictest runs a rubric's own test cases (its test blocks):
// each scores a surface, in this process, with the offline heuristic
// judge or a replay file, and compares report values with what the test
// expects. rubric test and the built-in rubrics' Go tests both use it.
package rubrictest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/internal/words"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/judges/replay"
)

// Failure is one expectation a test did not meet.
type Failure struct {
	Path, Want, Got string
	Line            int
}

// Result is one test's outcome: Err when it could not run (the test is
// broken, not failed: a surface that cannot be read, an expectation of
// a member no report has, a formula that fails), else the expectations
// it missed (none: it passed).
type Result struct {
	Test     *rubric.Test
	Err      error
	Failures []Failure
}

// Passed reports whether the test ran and met every expectation.
func (r Result) Passed() bool { return r.Err == nil && len(r.Failures) == 0 }

// Run runs every test of r.
func Run(ctx context.Context, r *rubric.Rubric) []Result {
	out := make([]Result, 0, len(r.Tests))
	for _, t := range r.Tests {
		out = append(out, runOne(ctx, r, t))
	}
	return out
}

func runOne(ctx context.Context, r *rubric.Rubric, t *rubric.Test) Result {
	res := Result{Test: t}
	// Every expectation no report can meet is said at once.
	broken := members(r, t)
	s, err := surfaceOf(t)
	if err != nil {
		res.Err = errors.Join(broken, err)
		return res
	}
	if err := errors.Join(broken, tools(r, s, t)); err != nil {
		res.Err = err
		return res
	}
	var j interface {
		ask.Judge
		Configure(context.Context, judge.Config) (judge.Identity, error)
	} = heuristic.New()
	cfg := judge.Config{}
	if t.Answers != "" {
		j = replay.New()
		cfg.Options = map[string]string{replay.OptionAnswers: relative(t, t.Answers)}
	}
	id, err := j.Configure(ctx, cfg)
	if err != nil {
		res.Err = err
		return res
	}
	opts := score.Options{Target: "test " + t.Name}
	if len(r.Questions) > 0 {
		opts.Asker = &ask.Asker{Judge: j, Identity: id, Rubric: r, CountTokens: r.ReadsUsage()}
	}
	rep, err := score.Run(ctx, r, s, opts)
	if err != nil {
		res.Err = err
		return res
	}
	b, err := report.Marshal(rep)
	if err != nil {
		res.Err = err
		return res
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		res.Err = err
		return res
	}
	for _, e := range t.Expect {
		got, ok := lookup(doc, e.Path)
		if !ok {
			res.Failures = append(res.Failures, Failure{Path: e.Path, Want: wantText(e), Got: "(the report has no " + e.Path + ": name score, grade, tools.NAME.FIELD, metrics.NAME or a top-level member such as server.FIELD)", Line: e.Line})
			continue
		}
		if !same(e, got) {
			res.Failures = append(res.Failures, Failure{Path: e.Path, Want: wantText(e), Got: text(got) + kindHint(e, got), Line: e.Line})
		}
	}
	return res
}

// members refuses an expectation whose path starts with a member no
// report of r has (scoree for score): it could never be met, whatever
// the rubric scores, so the test is broken rather than failed. The
// members are the report's own and the rubric's surface report blocks.
func members(r *rubric.Rubric, t *rubric.Test) error {
	known := topLevel()
	for _, rb := range r.Surface.Reports {
		known = append(known, rb.Name)
	}
	metrics := metricNames(r.Surface.Metrics)
	var errs []error
	for _, e := range t.Expect {
		first, rest, _ := strings.Cut(e.Path, ".")
		if first == "metrics" && rest != "" {
			// The surface's metrics are the rubric's, known when it
			// loads: one it does not declare is in no report.
			name, _, _ := strings.Cut(rest, ".")
			if !slices.Contains(metrics, name) {
				errs = append(errs, unknownMember(t, e, "the rubric declares no surface metric "+name, name, metrics, "it declares none", "its surface metrics are"))
			}
			continue
		}
		if slices.Contains(known, first) {
			continue
		}
		msg := fmt.Sprintf("%s:%d:%d: expect %s: a report has no member %s", t.File, e.Line, e.Col, e.Path, first)
		if near := nearest.Key(first, known); near != "" {
			msg += fmt.Sprintf(": did you mean %s?", near)
		} else {
			msg += ": name score, grade, tools.NAME.FIELD, metrics.NAME or a top-level member such as server.FIELD"
		}
		errs = append(errs, errors.New(msg))
	}
	return errors.Join(errs...)
}

// unknownMember is the error of an expectation e that names a member
// (name) no report can have, which why says, with the nearest of known,
// or, when none is near, what none says of no names or these of the
// names listed ("its tools are").
func unknownMember(t *rubric.Test, e rubric.Expectation, why, name string, known []string, none, these string) error {
	msg := fmt.Sprintf("%s:%d:%d: expect %s: %s", t.File, e.Line, e.Col, e.Path, why)
	switch near := nearest.Key(name, known); {
	case near != "":
		msg += fmt.Sprintf(": did you mean %s?", near)
	case len(known) == 0:
		msg += ": " + none
	default:
		msg += ": " + these + " " + words.List(known, 8)
	}
	return errors.New(msg)
}

// toolMembers are the members of a tool's entry in a report of r: the
// report's own (name, score, checks, ...) and r's tool report blocks'.
func toolMembers(r *rubric.Rubric) []string {
	out := jsonNames(reflect.TypeFor[report.Tool]())
	for _, rb := range r.Tool.Reports {
		// A tool's report block's fields join the tool's entry.
		for _, f := range rb.Fields {
			out = append(out, f.Name)
		}
	}
	return out
}

// tools refuses an expectation on tools.NAME for a tool the test's
// surface does not have, or on tools.NAME.FIELD for a member no tool's
// entry has (a field the report and the rubric's tool report blocks do
// not write, or a metric the tool block does not declare): no report of
// that surface has it, whatever the rubric scores, so the test is broken
// rather than failed, as an expectation of a member no report has is
// (see members).
func tools(r *rubric.Rubric, s *surface.Surface, t *rubric.Test) error {
	names := make([]string, len(s.Tools))
	for i, tl := range s.Tools {
		names[i] = tl.Name
	}
	fields := toolMembers(r)
	metrics := metricNames(r.Tool.Metrics)
	var errs []error
	for _, e := range t.Expect {
		rest, ok := strings.CutPrefix(e.Path, "tools.")
		if !ok {
			continue
		}
		// A tool's name may hold a dot: the path names it when it is
		// the whole rest or is followed by a field; the longest name
		// that does is the tool's.
		tool := ""
		for _, n := range names {
			if (rest == n || strings.HasPrefix(rest, n+".")) && len(n) > len(tool) {
				tool = n
			}
		}
		if tool != "" {
			field, sub, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(rest, tool), "."), ".")
			switch {
			case field == "":
			case !slices.Contains(fields, field):
				errs = append(errs, unknownMember(t, e, "a tool's entry has no member "+field, field, fields, "it has none", "its members are"))
			case field == "metrics" && sub != "":
				m, _, _ := strings.Cut(sub, ".")
				if !slices.Contains(metrics, m) {
					errs = append(errs, unknownMember(t, e, "the rubric's tool block declares no metric "+m, m, metrics, "it declares none", "its metrics are"))
				}
			}
			continue
		}
		name, _, _ := strings.Cut(rest, ".")
		errs = append(errs, unknownMember(t, e, "the test's surface has no tool "+name, name, names, "it has no tools", "its tools are"))
	}
	return errors.Join(errs...)
}

// topLevel are the members of every report's JSON object, by their
// names in report.Report's JSON tags.
func topLevel() []string { return jsonNames(reflect.TypeFor[report.Report]()) }

// metricNames are the names of ms, in order.
func metricNames(ms []*rubric.Metric) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// jsonNames are the names the JSON tags of typ's fields give them, in
// order; a field left out of JSON ("-") or untagged has none.
func jsonNames(typ reflect.Type) []string {
	var out []string
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// surfaceOf reads a test's surface: inline JSON, or a file.
func surfaceOf(t *rubric.Test) (*surface.Surface, error) {
	src := strings.TrimSpace(t.Surface)
	if rubric.IsInlineSurface(src) {
		return surface.Parse("test "+t.Name, []byte(src))
	}
	path := relative(t, src)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s:%d: test %q: its surface %q is not there (looked for %s): a surface is inline JSON or a path relative to the rubric's file", t.File, t.Line, t.Name, src, path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s:%d: test %q: %w (a surface is inline JSON or a path relative to the rubric's file)", t.File, t.Line, t.Name, err)
	}
	return surface.Parse(path, b)
}

// relative resolves a path of a test against its rubric's file.
func relative(t *rubric.Test, p string) string {
	if filepath.IsAbs(p) || strings.HasPrefix(t.File, "builtin:") {
		return p
	}
	return filepath.Join(filepath.Dir(t.File), p)
}

// lookup follows a dotted path into the report: tools.NAME picks the
// tool of that name, metrics.NAME the surface metric's value, and any
// other step a member.
func lookup(doc any, path string) (any, bool) {
	parts := strings.Split(path, ".")
	cur := doc
	for i := 0; i < len(parts); i++ {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[parts[i]]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			// The entry named by the most steps: a tool's name may hold
			// a dot (fs.read).
			found := false
			for j := len(parts); j > i && !found; j-- {
				name := strings.Join(parts[i:j], ".")
				for _, e := range x {
					if m, ok := e.(map[string]any); ok && m["name"] == name {
						cur, found = m, true
						i = j - 1
						if _, metric := m["value"]; metric && i == len(parts)-1 {
							cur = m["value"]
						}
						break
					}
				}
			}
			if !found {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if m, ok := cur.(map[string]any); ok {
		if v, metric := m["value"]; metric {
			return v, true
		}
	}
	return cur, true
}

// same compares a report value with what a test expects: numbers
// exactly, anything else as its text. A report writes its exact values
// (a check's points and credit, a score's exact) as strings such as
// "1/2": an expected number meets them by value, as it meets a score.
func same(e rubric.Expectation, got any) bool {
	if e.Number {
		var text string
		switch g := got.(type) {
		case json.Number:
			text = string(g)
		case string:
			text = g
		default:
			return false
		}
		g, err := num.Parse(text)
		if err != nil {
			return false
		}
		w, err := num.Parse(e.Want)
		return err == nil && g.Cmp(w) == 0
	}
	if e.Bool {
		b, ok := got.(bool)
		return ok && fmt.Sprint(b) == e.Want
	}
	s, ok := got.(string)
	return ok && s == e.Want
}

// wantText writes what a test expects as got is written: a string in
// quotes, so that an expected "25" is not taken for the number 25.
func wantText(e rubric.Expectation) string {
	if e.Number || e.Bool {
		return e.Want
	}
	return fmt.Sprintf("%q", e.Want)
}

// kindHint says what to write when an expectation is of another kind
// than the report's value (a number in quotes), "" otherwise: want "25"
// and got 25.0 differ in kind only, which the values do not show.
func kindHint(e rubric.Expectation, got any) string {
	_, gotNumber := got.(json.Number)
	switch {
	case !e.Number && gotNumber:
		return " (a number: write the expected value without quotes)"
	case e.Number:
		if s, ok := got.(string); ok {
			if _, err := num.Parse(s); err != nil {
				return " (a string: write the expected value in quotes)"
			}
		}
	}
	return ""
}

func text(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

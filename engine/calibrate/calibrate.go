// Package calibrate sets a rubric's scores of a registry capture against
// the scores the registry published for the same definitions.
//
// The captured definitions are scored several times (each run with
// answers given afresh); per tool and per measure, the median of the runs
// is set against the published value. Nothing is adjusted: the record
// keeps the runs, the published values and the differences, with what
// they depend on (the rubric's digest, the judge's identity and the hash
// of the scored set), so that Compare can say when a record no longer
// describes the rubric, judge and capture at hand.
//
// The package knows no rubric. Published values are matched to the
// rubric's by name: a member of a tool's qualityScore (at any depth, such
// as "score" or "scores.clarity") with the tool report field of
// the same path, and a member of the capture's "server" with the member
// of the same name in any of the rubric's surface report sections. The
// first top-level number of qualityScore that matches is the tool's
// score; the other numbers are its dimensions; labels (tiers) are counted
// as agreeing or not. Measures follow the rubric's order: a tool's report
// fields, and its surface report sections' members, as the rubric writes
// them.
//
// Scores, medians, differences and means are exact (package num); only
// the Pearson correlation is a float64.
package calibrate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/termtext"
	"github.com/rubricmcp/rubric/internal/words"
)

// Version is the version of the record's format.
const Version = 1

// Record is a calibration: what was scored, by what, every run, the
// published values and the statistics. It is written as calibration.json.
type Record struct {
	Version   int              `json:"calibration_version"`
	Generator report.Generator `json:"generator"`
	Capture   CaptureInfo      `json:"capture"`
	Rubric    RubricInfo       `json:"rubric"`
	// Judge is who answered, as every report records it.
	Judge *report.Judge `json:"judge"`
	// JudgeConfig is how the judge was started, so that a check can start
	// it again and compare its identity.
	JudgeConfig JudgeConfig `json:"judge_config"`
	Runs        int         `json:"runs"`
	// Measures says which published names matched the rubric's.
	Measures Measures `json:"measures"`
	// Published holds the published values that matched, nothing else.
	Published  Published `json:"published"`
	Results    []Run     `json:"results"`
	Statistics Stats     `json:"statistics"`
	// Differences lists where the capture's definitions differ from the
	// server's own tools/list, when one was read; null otherwise.
	Differences *Differences `json:"definition_differences"`

	// rawStats is the statistics member as Read found it in the file.
	rawStats json.RawMessage
}

// CaptureInfo identifies the capture. Path is relative to the record's
// directory when the record was written by rubric calibrate.
type CaptureInfo struct {
	Path        string `json:"path"`
	About       string `json:"about,omitempty"`
	Release     string `json:"release,omitempty"`
	ScoredAt    string `json:"scored_at,omitempty"`
	SurfaceHash string `json:"surface_hash"`
	ToolCount   int    `json:"tool_count"`
}

// RubricInfo identifies the rubric. Ref is what finds it again: a
// built-in's "builtin:FILE", or a path relative to the record's directory.
type RubricInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
	Ref     string `json:"ref"`
}

// JudgeConfig is the judge as it was asked for: its plugin (a name or a
// path), and the model and options it was configured with. Options hold
// no secrets (a judge reads those from its environment).
type JudgeConfig struct {
	Ref string `json:"ref"`
	judge.Config
}

// Measures names what was matched: the tool's score, its dimensions, its
// labels and the whole set's values, each by its published name; and the
// published names nothing of the rubric's matched.
type Measures struct {
	Tool       string   `json:"tool"`
	Dimensions []string `json:"dimensions"`
	Labels     []string `json:"labels"`
	Server     []string `json:"server"`
	Unmatched  []string `json:"unmatched,omitempty"`
	// UnmatchedServer are the published values of the whole set (the
	// capture's "server") nothing of the rubric's matched; the server's
	// own name, version and title are no published values.
	UnmatchedServer []string `json:"unmatched_server,omitempty"`
	// Excluded are published values of a matched name left out: of
	// another kind than the rubric's (a string where it has a number), or
	// outside the rubric's scale.
	Excluded []Excluded `json:"excluded,omitempty"`
}

// Excluded is one published value left out of the calibration, and why.
type Excluded struct {
	// Tool is the tool's name; "" for a value of the whole set.
	Tool  string `json:"tool,omitempty"`
	Name  string `json:"name"`
	Value string `json:"value"`
	Why   string `json:"why"`
}

// String says which value was left out and why.
func (e Excluded) String() string {
	where := "the server's"
	if e.Tool != "" {
		where = quoted(e.Tool) + "'s"
	}
	return termtext.Printable(fmt.Sprintf("%s published %s is %s, %s: left out", where, quoted(e.Name), e.Value, e.Why))
}

// quoted is a name from the registry as a message shows it: as it is,
// or quoted when it holds white space or a character that does not print
// (a line break would start a line of the registry's own).
func quoted(name string) string {
	if name == "" || strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsGraphic(r) }) >= 0 {
		return strconv.Quote(name)
	}
	return name
}

// quotedAll is quoted for each name, joined with commas.
func quotedAll(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quoted(n)
	}
	return strings.Join(out, ", ")
}

// Range is the range of a rubric's scores, both ends included.
type Range struct {
	Min, Max num.Num
}

// excluded says whether the value name of tool (or "" for the whole
// set) is left out.
func (m Measures) excluded(tool, name string) bool {
	for _, e := range m.Excluded {
		if e.Tool == tool && e.Name == name {
			return true
		}
	}
	return false
}

// Published is what the registry published that matched: numbers and
// labels only.
type Published struct {
	Server []Named         `json:"server"`
	Tools  []PublishedTool `json:"tools"`
}

// Run is one scoring run's values of the matched measures.
type Run struct {
	Run int `json:"run"`
	// Answers and Report name the files the run's answers and report were
	// written to, beside the record.
	Answers string          `json:"answers,omitempty"`
	Report  string          `json:"report,omitempty"`
	Server  []Named         `json:"server"`
	Tools   []PublishedTool `json:"tools"`
	Calls   report.Calls    `json:"calls"`
}

// Options tune the statistics.
type Options struct {
	// Tolerance is how far from the mean offset a tool's difference may
	// lie and still count as following it; zero means 0.3.
	Tolerance num.Num
	// Largest is how many of the largest differences are listed; zero
	// means 10.
	Largest int
	// Resamples and Seed drive the bootstrap confidence intervals; zero
	// means DefaultResamples and DefaultSeed.
	Resamples int
	Seed      uint64
	// Scale, when set, is the range of the rubric's scores: a published
	// score or dimension outside it is left out (New).
	Scale *Range
}

// DefaultTolerance is the band around the mean offset, 0.3.
var DefaultTolerance = num.Frac(3, 10)

// New builds a record from a capture and the reports of the runs that
// scored its definitions, in run order. The caller fills in the
// generator, the judge's configuration, the rubric's ref, file names and
// definition differences.
func New(c *Capture, runs []*report.Report, opt Options) (*Record, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("calibration needs at least one run")
	}
	hash := c.Surface.Hash()
	for i, rep := range runs {
		if rep.Surface.Hash != hash {
			return nil, fmt.Errorf("run %d scored the set %s, not the capture's %s", i+1, rep.Surface.Hash, hash)
		}
		if rep.Rubric.Digest != runs[0].Rubric.Digest {
			return nil, fmt.Errorf("run %d was scored with another rubric digest than run 1", i+1)
		}
	}
	scoredRuns := make([]scored, len(runs))
	for i, rep := range runs {
		s, err := readRun(rep)
		if err != nil {
			return nil, fmt.Errorf("run %d: %w", i+1, err)
		}
		scoredRuns[i] = s
	}
	m, err := match(c, scoredRuns[0], opt.Scale)
	if err != nil {
		return nil, fmt.Errorf("rubric %s: %w", runs[0].Rubric.Name, err)
	}
	rec := &Record{
		Version: Version,
		Capture: CaptureInfo{
			Path: c.Path, About: c.About, Release: c.Release, ScoredAt: c.ScoredAt,
			SurfaceHash: hash, ToolCount: len(c.Surface.Tools),
		},
		Rubric:   RubricInfo{Name: runs[0].Rubric.Name, Version: runs[0].Rubric.Version, Digest: runs[0].Rubric.Digest, Ref: runs[0].Rubric.File},
		Judge:    runs[0].Judge,
		Runs:     len(runs),
		Measures: m,
	}
	rec.Published = published(c, m)
	for i, s := range scoredRuns {
		rec.Results = append(rec.Results, s.run(i+1, c, m, runs[i].Calls))
	}
	rec.Statistics = compute(rec, opt)
	return rec, nil
}

// scored is what calibration reads of one run's report: each tool's
// report fields and the members of the surface report sections, by path;
// and the paths in the rubric's order (a tool's fields, over all tools).
type scored struct {
	tools       map[string]map[string]Val
	server      map[string]Val
	toolOrder   []string
	serverOrder []string
}

func readRun(rep *report.Report) (scored, error) {
	s := scored{tools: map[string]map[string]Val{}, server: map[string]Val{}}
	seen := map[string]bool{}
	for _, t := range rep.Tools {
		var vals []Named
		for _, f := range t.Fields {
			v, err := fieldValues(f, t.Name)
			if err != nil {
				return s, err
			}
			vals = append(vals, v...)
		}
		for _, v := range vals {
			if !seen[v.Name] {
				seen[v.Name] = true
				s.toolOrder = append(s.toolOrder, v.Name)
			}
		}
		s.tools[t.Name] = byName(vals)
	}
	for _, sec := range rep.Sections {
		members, _ := sec.Value.(report.Fields)
		for _, f := range members {
			v, err := fieldValues(f, sec.Name)
			if err != nil {
				return s, err
			}
			for _, nv := range v {
				if _, dup := s.server[nv.Name]; !dup {
					s.server[nv.Name] = nv.Value
					s.serverOrder = append(s.serverOrder, nv.Name)
				}
			}
		}
	}
	return s, nil
}

// noToolScore says that no top-level number a registry published is a
// number the rubric writes of its tools under the same name, naming
// both sides' names: the capture was scored under another rubric than
// the one given, or the rubric reports its tool score by another name.
func noToolScore(c *Capture, published map[string]map[bool]bool, first scored) error {
	var theirs, ours []string
	for name, kinds := range published {
		if kinds[false] && !strings.Contains(name, ".") {
			theirs = append(theirs, name)
		}
	}
	slices.Sort(theirs)
	for _, name := range first.toolOrder {
		if strings.Contains(name, ".") {
			continue
		}
		for _, vals := range first.tools {
			if v, ok := vals[name]; ok && !v.IsText {
				ours = append(ours, name)
				break
			}
		}
	}
	pub := "publishes no top-level number"
	if len(theirs) > 0 {
		pub = "publishes " + strings.Join(theirs, ", ")
	}
	mine := "write no number"
	if len(ours) > 0 {
		mine = "write the numbers " + strings.Join(ours, ", ")
	}
	var bare []PublishedTool
	for _, t := range c.Tools {
		if t.bare != "" {
			bare = append(bare, t)
		}
	}
	if len(bare) > 0 {
		pub += fmt.Sprintf(" (the qualityScore of %s is no object of named values: %s's is %s)",
			report.Plural(len(bare), "tool"), quoted(bare[0].Name), bare[0].bare)
	}
	return fmt.Errorf("no top-level number of the capture's qualityScore matches a tool report field of the same name: the capture %s, and the rubric's tool report blocks %s; calibrate with the rubric the registry's scores follow, whose tool report writes a field of that name (--rubric NAME or PATH)", pub, mine)
}

// fieldValues flattens one report member.
func fieldValues(f report.Field, where string) ([]Named, error) {
	raw, err := f.JSON()
	if err != nil {
		return nil, fmt.Errorf("%s: member %q: %w", where, f.Name, err)
	}
	return flatten(raw, f.Name, 1)
}

// match decides which published names are measured: those the first run
// has a value of the same kind for, on any tool (or in any section), in
// the rubric's order. The tool's score is the first top-level number.
func match(c *Capture, first scored, scale *Range) (Measures, error) {
	var m Measures
	// The kind of each published name: a label or a number; mixed if
	// tools disagree, which then matches only where the rubric agrees.
	published := map[string]map[bool]bool{}
	for _, t := range c.Tools {
		for _, p := range t.Values {
			if published[p.Name] == nil {
				published[p.Name] = map[bool]bool{}
			}
			published[p.Name][p.Value.IsText] = true
		}
	}
	matched := map[string]bool{}
	for _, name := range first.toolOrder {
		kinds, ok := published[name]
		if !ok {
			continue
		}
		isText := false
		for _, vals := range first.tools {
			if v, ok := vals[name]; ok {
				isText = v.IsText
				break
			}
		}
		if !kinds[isText] {
			continue
		}
		matched[name] = true
		switch {
		case isText:
			m.Labels = append(m.Labels, name)
		case m.Tool == "" && !strings.Contains(name, "."):
			m.Tool = name
		default:
			m.Dimensions = append(m.Dimensions, name)
		}
	}
	for name := range published {
		if !matched[name] {
			m.Unmatched = append(m.Unmatched, name)
		}
	}
	slices.Sort(m.Unmatched)
	if m.Tool == "" {
		return m, noToolScore(c, published, first)
	}
	pubServer := byName(c.Server)
	for _, name := range first.serverOrder {
		if p, ok := pubServer[name]; ok && p.IsText == first.server[name].IsText {
			m.Server = append(m.Server, name)
		}
	}
	for _, p := range c.Server {
		switch ours, ok := first.server[p.Name]; {
		case slices.Contains(m.Server, p.Name), serverIdentity[p.Name]:
		case ok:
			m.Excluded = append(m.Excluded, Excluded{Name: p.Name, Value: kindText(p.Value), Why: "not " + kindWord(ours.IsText)})
		default:
			m.UnmatchedServer = append(m.UnmatchedServer, p.Name)
		}
	}
	m.Excluded = append(m.Excluded, exclude(c, m, scale)...)
	return m, nil
}

// serverIdentity are the members of a capture's server that say which
// server it is, not what the registry published about it.
var serverIdentity = map[string]bool{"name": true, "version": true, "title": true}

// exclude lists the published values of the tools' measured names that
// are left out: of the other kind than the measure (a label where the
// rubric has a number, or the other way round), a number outside scale
// (when given), or a member the rubric measures as a number that is no
// number at all (a text, null).
func exclude(c *Capture, m Measures, scale *Range) []Excluded {
	var out []Excluded
	isLabel := map[string]bool{}
	for _, l := range m.Labels {
		isLabel[l] = true
	}
	for _, t := range c.Tools {
		if t.bare != "" {
			out = append(out, Excluded{Tool: t.Name, Name: "qualityScore", Value: t.bare, Why: "not an object of named values, so none of it matches the rubric's"})
			continue
		}
		vals := byName(t.Values)
		for _, name := range m.toolNames() {
			v, ok := vals[name]
			switch {
			case !ok:
				if other, ok := t.other[name]; ok && !isLabel[name] {
					out = append(out, Excluded{Tool: t.Name, Name: name, Value: other, Why: "not a number"})
				}
			case v.IsText != isLabel[name]:
				out = append(out, Excluded{Tool: t.Name, Name: name, Value: kindText(v), Why: "not " + kindWord(isLabel[name])})
			case !v.IsText && scale != nil && (v.Num.Cmp(scale.Min) < 0 || v.Num.Cmp(scale.Max) > 0):
				out = append(out, Excluded{Tool: t.Name, Name: name, Value: v.String(), Why: fmt.Sprintf("outside the rubric's scale, %s to %s", scale.Min, scale.Max)})
			}
		}
	}
	return out
}

// kindText says a published value with its kind: the string "4.1", the
// number 4.
func kindText(v Val) string {
	if v.IsText {
		return "the string " + strconv.Quote(v.Text)
	}
	return "the number " + v.String()
}

// kindWord is what a measure is: a label or a number.
func kindWord(label bool) string {
	if label {
		return "a label"
	}
	return "a number"
}

// toolNames are the measured names of a tool, score first.
func (m Measures) toolNames() []string {
	return append(append([]string{m.Tool}, m.Dimensions...), m.Labels...)
}

// keep returns the values among vals whose names are in names, in the
// order of names.
func keep(vals map[string]Val, names []string) []Named {
	out := []Named{}
	for _, n := range names {
		if v, ok := vals[n]; ok {
			out = append(out, Named{Name: n, Value: v})
		}
	}
	return out
}

// published are the capture's values of the measured names, but those
// m excludes.
func published(c *Capture, m Measures) Published {
	p := Published{Server: keep(byName(c.Server), m.Server)}
	names := m.toolNames()
	for _, t := range c.Tools {
		vals := keep(byName(t.Values), names)
		vals = slices.DeleteFunc(vals, func(v Named) bool { return m.excluded(t.Name, v.Name) })
		p.Tools = append(p.Tools, PublishedTool{Name: t.Name, Values: vals})
	}
	return p
}

// Warnings say what of the published values the record leaves out, and
// why: values of a matched name left out (Excluded), and names nothing of
// the rubric's matched. None when every published value was used.
func (rec *Record) Warnings() []string {
	var out []string
	for _, e := range rec.Measures.Excluded {
		out = append(out, e.String())
	}
	if u := rec.Measures.Unmatched; len(u) > 0 {
		out = append(out, termtext.Printable(fmt.Sprintf("no tool report field of %s matches the published %s %s: left out", rec.Rubric.Name, words.Pick(len(u), "value", "values"), quotedAll(u))))
	}
	if u := rec.Measures.UnmatchedServer; len(u) > 0 {
		out = append(out, termtext.Printable(fmt.Sprintf("no surface report value of %s matches the server's published %s %s: left out", rec.Rubric.Name, words.Pick(len(u), "value", "values"), quotedAll(u))))
	}
	return out
}

func (s scored) run(n int, c *Capture, m Measures, calls report.Calls) Run {
	r := Run{Run: n, Server: keep(s.server, m.Server), Calls: calls}
	names := m.toolNames()
	for _, t := range c.Surface.Tools {
		r.Tools = append(r.Tools, PublishedTool{Name: t.Name, Values: keep(s.tools[t.Name], names)})
	}
	return r
}

package heuristic_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic"
)

// calibrationDir holds the development calibration set, inside the
// repository so that the tests need nothing outside it.
var calibrationDir = filepath.Join("..", "..", "calibration", "dev")

// observedFile is glama_tdqs_observed.json.
type observedFile struct {
	Tools []struct {
		URL             string `json:"url"`
		Capture         string `json:"capture"`
		Group           string `json:"group"`
		Name            string `json:"name"`
		Title           string `json:"title"`
		Description     string `json:"description"`
		DescriptionNote string `json:"description_note"`
		InputParams     []struct {
			Name      string `json:"name"`
			Required  bool   `json:"required"`
			Described bool   `json:"described"`
			Default   any    `json:"default"`
		} `json:"input_params"`
		Annotations        map[string]any  `json:"annotations"`
		OutputSchemaFields []string        `json:"output_schema_fields"`
		Scores             map[string]*int `json:"scores"`
		TDQS               *float64        `json:"tdqs"`
	} `json:"tools"`
	Servers []struct {
		URL                      string `json:"url"`
		ToolCount                int    `json:"toolCount"`
		Disambiguation           *int   `json:"disambiguation"`
		NamingConsistency        *int   `json:"namingConsistency"`
		ToolCountAppropriateness *int   `json:"toolCountAppropriateness"`
		Completeness             *int   `json:"completeness"`
	} `json:"servers"`
}

// specFile is tdqs_spec_examples.json.
type specFile struct {
	Tools []struct {
		Label       string         `json:"label"`
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Annotations map[string]any `json:"annotations"`
		Params      struct {
			Count     int `json:"count"`
			Described int `json:"described"`
		} `json:"params"`
		OutputSchema bool     `json:"output_schema"`
		Siblings     []string `json:"siblings"`
		Expected     struct {
			Scores                  map[string]*int `json:"scores"`
			TDQS                    *float64        `json:"tdqs"`
			Tier                    *string         `json:"tier"`
			AnnotationContradiction bool            `json:"annotation_contradiction"`
		} `json:"expected"`
	} `json:"tools"`
	Coherence []struct {
		Server   string             `json:"server"`
		Tools    []string           `json:"tools"`
		Expected map[string]float64 `json:"expected"`
	} `json:"coherence"`
}

func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(calibrationDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// record is one tool with published scores, built into a question.
type record struct {
	set, label string
	// group names the records of glama_tdqs_rescored.json that are one
	// definition; empty in the other files.
	group     string
	input     map[string]any
	published map[string]*int
	tdqs      *float64 // the published composite, when shown
}

// target is what the heuristic's TDQS is ranked against: the published
// composite, or the mean of the published dimensions when none is shown.
func (r record) target() (float64, bool) {
	if r.tdqs != nil {
		return *r.tdqs, true
	}
	sum, n := 0, 0
	for _, d := range toolDims {
		if v := r.published[d.key]; v != nil {
			sum += *v
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(sum) / float64(n), true
}

// observedRecords builds a question for every Glama record of a file that
// has a description and a schema summary, and says why it skipped the
// others.
func observedRecords(t testing.TB, file, set string) (recs []record, skipped []string) {
	var obs observedFile
	readJSON(t, file, &obs)
	byKey := map[string]string{}
	for _, r := range obs.Tools {
		if r.Description != "" && !strings.HasPrefix(r.Description, "SAME_AS:") {
			byKey[sourceKey(r.URL)+" "+r.Name] = r.Description
		}
	}
	for _, r := range obs.Tools {
		desc := r.Description
		if ref, ok := strings.CutPrefix(desc, "SAME_AS:"); ok {
			d, found := byKey[ref]
			if !found {
				t.Fatalf("%s: SAME_AS %q names no record", r.URL, ref)
			}
			desc = d
		}
		if desc == "" {
			skipped = append(skipped, fmt.Sprintf("%s (%s): the capture shows no description text", r.Name, sourceKey(r.URL)))
			continue
		}
		props := map[string]any{}
		var required []string
		for _, p := range r.InputParams {
			prop := map[string]any{"type": "string"}
			if p.Described {
				// The capture says a description exists, not what it says;
				// the judge reads only whether there is one.
				prop["description"] = "Described in the published schema."
			}
			if p.Default != nil {
				prop["default"] = p.Default
			}
			props[p.Name] = prop
			if p.Required {
				required = append(required, p.Name)
			}
		}
		schema := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			schema["required"] = required
		}
		tool := map[string]any{"name": r.Name, "description": desc, "inputSchema": schema}
		if r.Title != "" {
			tool["title"] = r.Title
		}
		if r.Annotations != nil {
			tool["annotations"] = r.Annotations
		}
		if len(r.OutputSchemaFields) > 0 {
			out := map[string]any{}
			for _, f := range r.OutputSchemaFields {
				out[f] = map[string]any{}
			}
			tool["outputSchema"] = map[string]any{"type": "object", "properties": out}
		}
		label := r.Name + " (" + sourceKey(r.URL) + ")"
		if r.Capture != "" {
			label = r.Name + " [" + r.Capture + "] (" + sourceKey(r.URL) + ")"
		}
		recs = append(recs, record{
			set: set, label: label, group: r.Group,
			input:     map[string]any{"tool": tool, "siblings": []string{}},
			published: r.Scores, tdqs: r.TDQS,
		})
	}
	return recs, skipped
}

// sourceKey is the "<owner>/<repo>" or connector name of a Glama URL.
func sourceKey(url string) string {
	for _, marker := range []string{"/mcp/servers/", "/mcp/connectors/"} {
		if _, rest, ok := strings.Cut(url, marker); ok {
			rest, _, _ = strings.Cut(rest, "/tools/")
			rest = strings.TrimSuffix(rest, "/score")
			return rest
		}
	}
	return url
}

// specRecords builds a question for each worked tool example of the
// specification, with placeholder parameter names the descriptions
// cannot mention.
func specRecords(t testing.TB) []record {
	var spec specFile
	readJSON(t, "tdqs_spec_examples.json", &spec)
	var recs []record
	for _, e := range spec.Tools {
		props := map[string]any{}
		for i := range e.Params.Count {
			prop := map[string]any{"type": "string"}
			if i < e.Params.Described {
				prop["description"] = "Described in the schema."
			}
			props[fmt.Sprintf("param_%d", i+1)] = prop
		}
		tool := map[string]any{"name": e.Name, "description": e.Description, "inputSchema": map[string]any{"type": "object", "properties": props}}
		if e.Annotations != nil {
			tool["annotations"] = e.Annotations
		}
		if e.OutputSchema {
			tool["outputSchema"] = map[string]any{"type": "object"}
		}
		siblings := e.Siblings
		if siblings == nil {
			siblings = []string{}
		}
		recs = append(recs, record{
			set: "spec", label: e.Label + " " + e.Name,
			input:     map[string]any{"tool": tool, "siblings": siblings},
			published: e.Expected.Scores, tdqs: e.Expected.TDQS,
		})
	}
	return recs
}

// stats accumulates agreement on one dimension.
type stats struct {
	n, within1, exact int
	absSum            float64
}

func (s *stats) add(published, got float64) {
	d := math.Abs(published - got)
	s.n++
	s.absSum += d
	if d <= 1 {
		s.within1++
	}
	if d == 0 {
		s.exact++
	}
}

func (s stats) mad() float64   { return s.absSum / float64(max(s.n, 1)) }
func (s stats) share() float64 { return float64(s.within1) / float64(max(s.n, 1)) }
func (s stats) String() string {
	return fmt.Sprintf("%3d  %5.2f  %4.0f%%  %4.0f%%", s.n, s.mad(), 100*s.share(), 100*float64(s.exact)/float64(max(s.n, 1)))
}

// spearman is the rank correlation of x and y, with tied values given
// their mean rank.
func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	mx, my := mean(rx), mean(ry)
	var sxy, sxx, syy float64
	for i := range rx {
		sxy += (rx[i] - mx) * (ry[i] - my)
		sxx += (rx[i] - mx) * (rx[i] - mx)
		syy += (ry[i] - my) * (ry[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func TestSpearman(t *testing.T) {
	cases := []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{[]float64{1, 2, 2, 3}, []float64{1, 2, 2, 3}, 1},
		{[]float64{1, 2, 3}, []float64{5, 5, 5}, 0},
	}
	for _, c := range cases {
		if got := spearman(c.x, c.y); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("spearman(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// measured is the agreement of the judge with one set of records.
type measured struct {
	perDim        map[string]*stats
	overall, tdqs stats
	rho           float64
	ranked        int
	detail        []string
}

// measure asks the judge about every record and sets its answers against
// the published scores.
func measure(t *testing.T, recs []record) measured {
	m := measured{perDim: map[string]*stats{}}
	for _, d := range toolDims {
		m.perDim[d.key] = &stats{}
	}
	var got, want []float64
	for _, r := range recs {
		_, a := ask(t, heuristic.KindTool, r.input)
		var pub, heur []string
		for _, d := range toolDims {
			h := a.score(d.key)
			heur = append(heur, fmt.Sprint(h))
			p := r.published[d.key]
			if p == nil {
				pub = append(pub, "-")
				continue
			}
			pub = append(pub, fmt.Sprint(*p))
			m.perDim[d.key].add(float64(*p), float64(h))
			m.overall.add(float64(*p), float64(h))
		}
		h := tdqsTenths(a)
		pubT := "-"
		if r.tdqs != nil {
			m.tdqs.add(*r.tdqs, float64(h)/10)
			pubT = fmt.Sprintf("%.1f", *r.tdqs)
		}
		if tgt, ok := r.target(); ok {
			got = append(got, float64(h)/10)
			want = append(want, tgt)
			if r.tdqs == nil {
				pubT = fmt.Sprintf("~%.2f", tgt)
			}
		}
		m.detail = append(m.detail, fmt.Sprintf("%-52s  %-27s  %-27s  %s / %s", quoteLabel(r.label), strings.Join(pub, " "), strings.Join(heur, " "), pubT, tenths(h)))
	}
	m.rho, m.ranked = spearman(got, want), len(got)
	return m
}

// floors are the least agreement a set must keep: each set a little
// below what the judge measured when it was last changed (see
// README.md), so that the test fails if a change to the cues makes the
// heuristic agree less with the published scores.
type floors struct {
	within1    float64 // share of all dimension scores within ±1
	dimWithin1 float64 // the same, for each dimension with 5+ scores
	mad        float64 // ceiling on the mean absolute difference
	spearman   float64 // heuristic TDQS against published TDQS (or mean)
	tdqsMAD    float64 // ceiling where a published TDQS exists
}

func (f floors) check(t *testing.T, set string, m measured) {
	t.Helper()
	if m.overall.share() < f.within1 {
		t.Errorf("%s: %.0f%% of dimension scores within ±1, below the floor of %.0f%%", set, 100*m.overall.share(), 100*f.within1)
	}
	if m.overall.mad() > f.mad {
		t.Errorf("%s: mean absolute difference %.2f over all dimensions, above the ceiling %.2f", set, m.overall.mad(), f.mad)
	}
	for _, d := range toolDims {
		if s := m.perDim[d.key]; s.n >= 5 && s.share() < f.dimWithin1 {
			t.Errorf("%s: %s: %.0f%% within ±1 (n=%d), below the floor of %.0f%%", set, d.key, 100*s.share(), s.n, 100*f.dimWithin1)
		}
	}
	if m.rho < f.spearman {
		t.Errorf("%s: Spearman %.3f, below the floor %.2f", set, m.rho, f.spearman)
	}
	if m.tdqs.n > 0 && m.tdqs.mad() > f.tdqsMAD {
		t.Errorf("%s: TDQS mean absolute difference %.2f, above the ceiling %.2f", set, m.tdqs.mad(), f.tdqsMAD)
	}
}

// The floors of the development set (the Glama observations and the
// specification's examples, which the cues were designed against;
// measured 99% within ±1, MAD 0.37, Spearman 0.855, TDQS MAD 0.02) and of
// the held-out set (first scored after the cues were designed; measured
// 95%, 0.44, 0.839 after the three fixes its first scoring prompted, see
// calibration/dev/README.md).
var (
	devFloors     = floors{within1: 0.95, dimWithin1: 0.80, mad: 0.45, spearman: 0.80, tdqsMAD: 0.15}
	heldOutFloors = floors{within1: 0.90, dimWithin1: 0.80, mad: 0.55, spearman: 0.75, tdqsMAD: 0.50}
)

// TestAgreement runs the judge over every usable record of the
// calibration sets and compares it with the published scores. Run with
// -v to see the tables:
//
//	go test ./judges/heuristic -run 'TestAgreement$' -v
func TestAgreement(t *testing.T) {
	glama, skipped := observedRecords(t, "glama_tdqs_observed.json", "glama")
	if len(glama) < 15 {
		t.Fatalf("only %d usable Glama records; the calibration file lost some", len(glama))
	}
	spec := specRecords(t)
	heldOut, skippedHeld := observedRecords(t, "glama_tdqs_heldout.json", "held-out")
	if len(heldOut) < 15 {
		t.Fatalf("only %d usable held-out records; the calibration file lost some", len(heldOut))
	}
	sets := []struct {
		name string
		m    measured
	}{
		{"glama (dev)", measure(t, glama)},
		{"spec (dev)", measure(t, spec)},
		{"dev = glama+spec", measure(t, append(append([]record{}, glama...), spec...))},
		{"held-out glama", measure(t, heldOut)},
	}
	var out strings.Builder
	fmt.Fprintf(&out, "agreement with published TDQS scores: %d Glama dev records, %d spec examples, %d held-out Glama records (%d skipped)\n",
		len(glama), len(spec), len(heldOut), len(skipped)+len(skippedHeld))
	fmt.Fprintf(&out, "%-24s", "n MAD ±1 exact")
	for _, s := range sets {
		fmt.Fprintf(&out, "  %-24s", s.name)
	}
	out.WriteString("\n")
	for _, d := range toolDims {
		fmt.Fprintf(&out, "%-24s", d.key)
		for _, s := range sets {
			fmt.Fprintf(&out, "  %-24s", s.m.perDim[d.key])
		}
		out.WriteString("\n")
	}
	fmt.Fprintf(&out, "%-24s", "all dimensions")
	for _, s := range sets {
		fmt.Fprintf(&out, "  %-24s", s.m.overall)
	}
	out.WriteString("\n")
	for _, s := range sets {
		fmt.Fprintf(&out, "%-17s TDQS MAD %.2f (n=%d published); Spearman(heuristic TDQS, published TDQS or mean of published dimensions) %.3f over %d records\n",
			s.name, s.m.tdqs.mad(), s.m.tdqs.n, s.m.rho, s.m.ranked)
	}
	for _, s := range append(skipped, skippedHeld...) {
		fmt.Fprintf(&out, "skipped: %s\n", s)
	}
	fmt.Fprintf(&out, "\n%-52s  %-27s  %-27s  %s\n", "record", "published (P U B Pa C Co)", "heuristic (P U B Pa C Co)", "TDQS pub/heur")
	for _, s := range []measured{sets[2].m, sets[3].m} {
		for _, l := range s.detail {
			out.WriteString(l + "\n")
		}
		out.WriteString("\n")
	}
	t.Log("\n" + out.String())
	devFloors.check(t, "dev", sets[2].m)
	heldOutFloors.check(t, "held-out", sets[3].m)
}

func quoteLabel(s string) string {
	if len(s) > 52 {
		return s[:51] + "…"
	}
	return s
}

// TestSpecExamples pins the specification's worked examples: each lands
// in its tier, and the contradiction is flagged with transparency 1.
func TestSpecExamples(t *testing.T) {
	var spec specFile
	readJSON(t, "tdqs_spec_examples.json", &spec)
	for i, r := range specRecords(t) {
		e := spec.Tools[i]
		t.Run(e.Label, func(t *testing.T) {
			_, a := ask(t, heuristic.KindTool, r.input)
			if a.AnnotationContradiction != e.Expected.AnnotationContradiction {
				t.Errorf("annotation_contradiction = %v, want %v (behavioural: %s)", a.AnnotationContradiction, e.Expected.AnnotationContradiction, a.Scores["behavioral_transparency"].Justification)
			}
			if e.Expected.AnnotationContradiction && a.score("behavioral_transparency") != 1 {
				t.Errorf("behavioral_transparency = %d, want 1 for a contradiction", a.score("behavioral_transparency"))
			}
			if e.Expected.Tier != nil {
				if got := tier(tdqsTenths(a)); got != *e.Expected.Tier {
					t.Errorf("TDQS %s is tier %s, want tier %s (spec TDQS %.1f)", tenths(tdqsTenths(a)), got, *e.Expected.Tier, *e.Expected.TDQS)
				}
			}
			for _, d := range toolDims {
				if want := e.Expected.Scores[d.key]; want != nil {
					if diff := a.score(d.key) - *want; diff > 1 || diff < -1 {
						t.Errorf("%s = %d, more than 1 from the spec's %d: %s", d.key, a.score(d.key), *want, a.Scores[d.key].Justification)
					}
				}
			}
		})
	}
}

// floorCoherenceWithin1 is the least share of coherence scores within ±1
// of the reference (measured: 92%, the 72-tool server the one miss).
const floorCoherenceWithin1 = 0.80

// TestCoherenceAgreement checks the coherence answers against the
// specification's two examples (all four dimensions) and the Glama
// server records (tool count only: they list no tool names).
func TestCoherenceAgreement(t *testing.T) {
	var spec specFile
	readJSON(t, "tdqs_spec_examples.json", &spec)
	var obs observedFile
	readJSON(t, "glama_tdqs_observed.json", &obs)
	var all stats
	var log strings.Builder
	for _, e := range spec.Coherence {
		var tools []map[string]any
		for _, n := range e.Tools {
			tools = append(tools, map[string]any{"name": n, "description": nil})
		}
		_, a := ask(t, heuristic.KindCoherence, map[string]any{"server": e.Server, "toolCount": len(tools), "tools": tools})
		sum := 0
		for _, d := range coherenceDims {
			want, got := e.Expected[d], a.score(d)
			all.add(want, float64(got))
			sum += got
			fmt.Fprintf(&log, "%-16s %-27s spec %.0f heuristic %d  %s\n", e.Server, d, want, got, a.Scores[d].Justification)
		}
		// The coherence score is the mean of the four, rounded half up to
		// one decimal: floor(10 * sum / 4 + 1/2) tenths.
		coherence := float64((sum*10+2)/4) / 10
		fmt.Fprintf(&log, "%-16s %-27s spec %.1f heuristic %.1f\n", e.Server, "coherence", e.Expected["coherence"], coherence)
		if math.Abs(coherence-e.Expected["coherence"]) > 0.5 {
			t.Errorf("%s: coherence %.1f, more than 0.5 from the spec's %.1f", e.Server, coherence, e.Expected["coherence"])
		}
	}
	for _, s := range obs.Servers {
		if s.ToolCountAppropriateness == nil {
			continue
		}
		_, a := ask(t, heuristic.KindCoherence, map[string]any{"server": sourceKey(s.URL), "toolCount": s.ToolCount, "tools": []any{}})
		got := a.score("tool_count_appropriateness")
		all.add(float64(*s.ToolCountAppropriateness), float64(got))
		fmt.Fprintf(&log, "%-16.16s %-27s glama %d heuristic %d (%d tools)\n", sourceKey(s.URL), "tool_count_appropriateness", *s.ToolCountAppropriateness, got, s.ToolCount)
	}
	fmt.Fprintf(&log, "coherence dimensions: n %d, MAD %.2f, within ±1 %.0f%%, exact %.0f%%\n", all.n, all.mad(), 100*all.share(), 100*float64(all.exact)/float64(all.n))
	t.Log("\n" + log.String())
	if all.share() < floorCoherenceWithin1 {
		t.Errorf("%.0f%% of coherence scores within ±1, below the floor of %.0f%%", 100*all.share(), 100*floorCoherenceWithin1)
	}
}

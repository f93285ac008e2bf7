package gate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// testRubric asks a judge to rate each tool's description and to look
// at the whole set, and gates on the mean of the tools' ratings: the
// shape of a judged rubric, without any real rubric's names.
const testRubric = `
rubric "rated" {
  version = "1"
  grades  = { A = 4, F = 0 }
  question "rate" {
    kind    = "test.rate"
    per     = "tool"
    input   = "{'name': tool.name, 'description': tool.description}"
    system  = "Rate."
    user    = "{{ fence \"d\" .description }}"
    answer_schema = <<-JSON
      {"type": "object", "required": ["n", "why"], "properties": {"n": {"type": "integer"}, "why": {"type": "string"}}}
    JSON
  }
  question "whole" {
    kind    = "test.whole"
    per     = "surface"
    input   = "{'tools': surface.tools.map(t, t.description)}"
    system  = "Look."
    user    = "{{ json .tools }}"
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    score = "answers.rate.n"
    report {
      dims = "{'clarity': answers.rate.n, 'length': 3}"
      why  = "{'clarity': {'score': answers.rate.n, 'justification': answers.rate.why}, 'length': 'fine'}"
    }
  }
  surface {
    metric "mean" { value = "mean(tools.map(t, t.score))" }
    metric "lowest" { value = "min(tools.map(t, t.score))" }
    score = "metrics.mean"
  }
  gate {
    title          = "mean rating"
    value          = "metrics.mean"
    round          = 1
    confirm        = 2
    scores         = "dims"
    justifications = "why"
  }
}
`

// rater is a judge that rates a description 1 when it says "bad", else
// 5, and counts its calls.
type rater struct {
	calls atomic.Int64
	fail  error
}

func (j *rater) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	j.calls.Add(1)
	if j.fail != nil {
		return judge.Answer{}, j.fail
	}
	if q.Kind == "test.whole" {
		return judge.Answer{JSON: []byte(`{}`), Model: "m"}, nil
	}
	var in struct{ Description string }
	if err := json.Unmarshal(q.Input, &in); err != nil {
		return judge.Answer{}, err
	}
	if strings.Contains(in.Description, "bad") {
		return judge.Answer{JSON: []byte(`{"n": 1, "why": "it says bad"}`), Model: "m"}, nil
	}
	return judge.Answer{JSON: []byte(`{"n": 5, "why": "clear"}`), Model: "m"}, nil
}

func load(t *testing.T) *rubric.Rubric {
	t.Helper()
	r, err := rubric.Load("rated.hcl", []byte(testRubric))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tools makes a surface of n tools; edit may change one definition.
func tools(n int, edit func(i int, def map[string]any)) *surface.Surface {
	s := &surface.Surface{}
	for i := range n {
		name := fmt.Sprintf("tool_%02d", i)
		def := map[string]any{"name": name, "description": fmt.Sprintf("Does thing %d well.", i), "inputSchema": map[string]any{"type": "object"}}
		if edit != nil {
			edit(i, def)
		}
		s.Tools = append(s.Tools, surface.NewTool(name, def))
	}
	return s
}

// fixture runs gates with one judge and one cache, counting how often
// the judge was started.
type fixture struct {
	r      *rubric.Rubric
	j      *rater
	store  *cache.Store
	starts int
}

func newFixture(t *testing.T) *fixture {
	return &fixture{r: load(t), j: &rater{}, store: cache.Memory()}
}

func (f *fixture) asker() *ask.Asker {
	return &ask.Asker{Judge: f.j, Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m"}, Rubric: f.r, Cache: f.store}
}

func (f *fixture) run(t *testing.T, base, head *surface.Surface) (*gate.Report, error) {
	t.Helper()
	return gate.Run(context.Background(), gate.Options{
		Rubric: f.r,
		Base:   gate.Input{Side: gate.Side{Rev: "main", Commit: "0123456789abcdef", Hash: base.Hash()}, Surface: base},
		Head:   gate.Input{Side: gate.Side{Hash: head.Hash()}, Surface: head},
		Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
			f.starts++
			return f.asker(), &report.Judge{Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m"}}, nil
		},
	})
}

func worse(i int, def map[string]any) {
	if i == 2 {
		def["description"] = "A bad description."
	}
}

func better(i int, def map[string]any) {
	if i == 2 {
		def["description"] = "Does thing 2 well, and says when to use it."
	}
}

func TestUnchangedPassesWithoutAJudge(t *testing.T) {
	f := newFixture(t)
	rep, err := f.run(t, tools(44, nil), tools(44, nil))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Pass || rep.ExitCode != 0 || len(rep.Pairs) != 0 || rep.Calls.Model != 0 {
		t.Fatalf("got %s (%s), %d pairs, %d calls", rep.Decision, rep.Reason, len(rep.Pairs), rep.Calls.Model)
	}
	if f.starts != 0 || f.j.calls.Load() != 0 || rep.Judge != nil {
		t.Errorf("an unchanged surface started the judge (%d starts, %d calls)", f.starts, f.j.calls.Load())
	}
	if !strings.Contains(rep.Reason, "unchanged") {
		t.Errorf("reason %q", rep.Reason)
	}
}

// TestCallsPerPair is the budget of a one-tool change on a 44-tool
// surface: the first pair asks every question of the base once and only
// the changed tool and the surface again for the head; each confirming
// pair asks only the changed tool and the surface question, on both
// sides: 4 calls.
func TestCallsPerPair(t *testing.T) {
	f := newFixture(t)
	rep, err := f.run(t, tools(44, nil), tools(44, worse))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Block || rep.ExitCode != 1 {
		t.Fatalf("got %s: %s", rep.Decision, rep.Reason)
	}
	want := []int{44 + 1 + 2, 4, 4}
	if len(rep.Pairs) != len(want) {
		t.Fatalf("%d pairs, want %d", len(rep.Pairs), len(want))
	}
	total := 0
	for i, p := range rep.Pairs {
		t.Logf("pair %d: %d calls, %d from the cache, %d questions", p.N, p.Calls.Model, p.Calls.CacheHits, p.Calls.Questions)
		if p.Calls.Model != want[i] {
			t.Errorf("pair %d made %d calls, want %d", p.N, p.Calls.Model, want[i])
		}
		if p.Calls.Questions != 2*45 {
			t.Errorf("pair %d answered %d questions, want 90", p.N, p.Calls.Questions)
		}
		total += p.Calls.Model
	}
	if rep.Calls.Model != total || int(f.j.calls.Load()) != total {
		t.Errorf("the report counts %d calls, the judge %d, the pairs %d", rep.Calls.Model, f.j.calls.Load(), total)
	}
	if f.starts != 1 {
		t.Errorf("the judge was started %d times", f.starts)
	}
}

// TestWarmCacheFirstPair: after the base was scored (rubric score with
// the same judge and cache), the first pair asks only what the head
// changed: the tool and the surface question.
func TestWarmCacheFirstPair(t *testing.T) {
	f := newFixture(t)
	base := tools(44, nil)
	if _, err := score.Run(context.Background(), f.r, base, score.Options{Asker: f.asker()}); err != nil {
		t.Fatal(err)
	}
	warm := f.j.calls.Load()
	rep, err := f.run(t, base, tools(44, better))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Pass || len(rep.Pairs) != 1 {
		t.Fatalf("got %s over %d pairs: %s", rep.Decision, len(rep.Pairs), rep.Reason)
	}
	if got := rep.Pairs[0].Calls.Model; got != 2 || f.j.calls.Load()-warm != 2 {
		t.Errorf("the first pair made %d calls, want 2 (at most 4)", got)
	}
	t.Logf("warm cache, pair 1: %d calls, %d from the cache", rep.Pairs[0].Calls.Model, rep.Pairs[0].Calls.CacheHits)
}

func TestDropExplained(t *testing.T) {
	f := newFixture(t)
	rep, err := f.run(t, tools(44, nil), tools(44, worse))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Fallen) != 1 {
		t.Fatalf("fallen: %+v", rep.Fallen)
	}
	fl := rep.Fallen[0]
	// (1 - 5) / 44 = -1/11 of the unrounded mean.
	if fl.Tool != "tool_02" || fl.Base != "5.0" || fl.Head != "1.0" || fl.CostExact != "-1/11" || fl.Cost != "-0.091" {
		t.Errorf("fallen %+v", fl)
	}
	if len(fl.Dimensions) != 1 || fl.Dimensions[0].Name != "clarity" || fl.Dimensions[0].Justification != "it says bad" {
		t.Errorf("dimensions %+v", fl.Dimensions)
	}
	p := rep.Pairs[0]
	// 44 fives: 5; 43 fives and a one: 216/44 = 54/11, 4.9 once rounded.
	if p.Base.Value != "5.0" || p.Head.Value != "4.9" || p.Head.Exact != "54/11" || !p.Drop {
		t.Errorf("pair 1 %+v", p)
	}
	if rep.Medians == nil || rep.Medians.Head != "4.9" || rep.Medians.Base != "5.0" {
		t.Errorf("medians %+v", rep.Medians)
	}
	names := []string{}
	for _, c := range rep.Information {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "mean,lowest" {
		t.Errorf("information %v, want the mean and the lowest (the score is the mean)", names)
	}
	if rep.Sizes.Change.DescriptionChars != len("A bad description.")-len("Does thing 2 well.") {
		t.Errorf("sizes %+v", rep.Sizes.Change)
	}
	var md bytes.Buffer
	if err := gate.WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## rubric gate: BLOCK", "| `tool_02` | 5.0 | 1.0 | -0.091 |", "- `clarity` 5 → 1: it says bad", "| median over 3 pairs | **5.0** | **4.9** |", "| description characters |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
		}
	}
}

func TestJudgeFailureIsInvalid(t *testing.T) {
	f := newFixture(t)
	f.j.fail = errors.New("the plugin crashed")
	rep, err := f.run(t, tools(3, nil), tools(3, worse))
	if err == nil || rep == nil || rep.Decision != gate.Invalid || rep.ExitCode != 2 {
		t.Fatalf("got %v, %+v", err, rep)
	}
	if !strings.Contains(rep.Reason, "the plugin crashed") || !strings.Contains(rep.Reason, "scoring the base") {
		t.Errorf("reason %q", rep.Reason)
	}
}

// savedAgain is rep as --check reads it back: written as gate.json, then
// decoded.
func savedAgain(t *testing.T, rep *gate.Report) *gate.Report {
	t.Helper()
	var buf bytes.Buffer
	if err := gate.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var back gate.Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// savedGate runs the gate of a fixture on five tools that all get worse,
// for the tests of a saved report: the fixture, the two sides and the
// report.
func savedGate(t *testing.T) (f *fixture, base, head *surface.Surface, saved *gate.Report) {
	t.Helper()
	f = newFixture(t)
	base, head = tools(5, nil), tools(5, worse)
	saved, err := f.run(t, base, head)
	if err != nil {
		t.Fatal(err)
	}
	return f, base, head, saved
}

func TestCheck(t *testing.T) {
	_, base, head, saved := savedGate(t)
	back := *savedAgain(t, saved)
	now := gate.Current{BaseHash: base.Hash(), HeadHash: head.Hash(), Rubric: saved.Rubric, Judge: saved.Judge}
	if got := gate.Check(&back, now); got.Decision != saved.Decision || got.ExitCode != saved.ExitCode {
		t.Errorf("matching exports: %s, want %s", got.Decision, saved.Decision)
	}
	moved := now
	moved.HeadHash = tools(5, better).Hash()
	got := gate.Check(&back, moved)
	if got.Decision != gate.Invalid || got.ExitCode != 2 || !strings.Contains(got.Reason, "the head's tool definitions moved") || strings.Contains(got.Reason, "the base's") {
		t.Errorf("a moved head: %s: %s", got.Decision, got.Reason)
	}

	// A saved exit status that is not its decision's is a report that
	// does not hold together (TestCheckRefusesForgedReports).
	forged := back
	forged.ExitCode = 0
	if got := gate.Check(&forged, now); got.ExitCode != 2 {
		t.Errorf("a BLOCK saved with exit code 0 exits %d", got.ExitCode)
	}

	// Another rubric, or another judge, makes the check INVALID and says
	// so.
	other := now
	other.Rubric.Digest = "sha256:" + strings.Repeat("0", 64)
	if got := gate.Check(&back, other); got.Decision != gate.Invalid || !strings.Contains(got.Reason, "the rubric differs (the report was made with rated 1 (sha256:") {
		t.Errorf("another rubric: %s: %s", got.Decision, got.Reason)
	}
	other = now
	other.Judge = &report.Judge{Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m2"}}
	if got := gate.Check(&back, other); got.Decision != gate.Invalid || !strings.Contains(got.Reason, "the judge differs (the report was judged by rater 1 model m, the judge named now is rater 1 model m2; they differ in model)") {
		t.Errorf("another judge: %s: %s", got.Decision, got.Reason)
	}

	// The whole identity counts, as it does in a cache key: a replay of
	// another answers file, or another temperature, is another judge,
	// though plugin, version and model are the same; a number read back
	// from the saved report as a float64 is the judge's int.
	withParams := func(params map[string]any) (*gate.Report, gate.Current) {
		s := back
		j := *back.Judge
		j.Params = params
		s.Judge = &j
		n := now
		n.Judge = &report.Judge{Identity: j.Identity}
		return &s, n
	}
	for _, tc := range []struct {
		name       string
		saved, now map[string]any
		differ     string // "" for the same judge
	}{
		{"another answers file", map[string]any{"answers_sha256": "aa"}, map[string]any{"answers_sha256": "bb"}, "params.answers_sha256"},
		{"another temperature", map[string]any{"temperature": 0.0}, map[string]any{"temperature": 0.7}, "params.temperature"},
		{"a parameter only now", nil, map[string]any{"seed": 7}, "params.seed"},
		{"a parameter only in the report", map[string]any{"seed": 7.0}, nil, "params.seed"},
		{"a number read back", map[string]any{"seed": 7.0, "max_tokens": 1024.0}, map[string]any{"seed": 7, "max_tokens": int64(1024)}, ""},
	} {
		s, n := withParams(tc.saved)
		n.Judge.Params = tc.now
		got := gate.Check(s, n)
		if tc.differ == "" {
			if got.Decision != saved.Decision {
				t.Errorf("%s: %s: %s, want the saved decision", tc.name, got.Decision, got.Reason)
			}
			continue
		}
		if got.Decision != gate.Invalid || !strings.Contains(got.Reason, "; they differ in "+tc.differ+")") {
			t.Errorf("%s: %s: %s, want INVALID naming %s", tc.name, got.Decision, got.Reason, tc.differ)
		}
	}
}

// TestReadRejectsUnknownDecisions: a saved report's decision is one of
// the three, or the report is refused.
func TestReadRejectsUnknownDecisions(t *testing.T) {
	f := newFixture(t)
	saved, err := f.run(t, tools(3, nil), tools(3, worse))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gate.Write(&buf, saved); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, bytes.Replace(buf.Bytes(), []byte(`"decision": "BLOCK"`), []byte(`"decision": "OK"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gate.Read(good); err != nil {
		t.Fatal(err)
	}
	if _, err := gate.Read(bad); err == nil || !strings.Contains(err.Error(), `decision "OK"`) {
		t.Errorf("an unknown decision: %v", err)
	}
}

// TestDeterministicRubricDecidesOnOnePair: a rubric that asks nothing
// starts no judge, and its first pair decides.
func TestDeterministicRubricDecidesOnOnePair(t *testing.T) {
	r := lenRubric(t)
	base, head := tools(4, nil), tools(4, better)
	rep, err := gate.Run(context.Background(), gate.Options{
		Rubric: r,
		Base:   gate.Input{Side: gate.Side{Rev: "main", Hash: base.Hash()}, Surface: base},
		Head:   gate.Input{Side: gate.Side{Hash: head.Hash()}, Surface: head},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Block || len(rep.Pairs) != 1 || rep.Judge != nil || rep.Rule.Value != "score" {
		t.Fatalf("got %s over %d pairs: %s", rep.Decision, len(rep.Pairs), rep.Reason)
	}
	if p := rep.Pairs[0]; p.Base.Value != "10.0" || p.Head.Value != "7.5" {
		t.Errorf("pair %+v", p)
	}
}

// wavering rates a description that says "bad" 1 the first time it is
// asked and 5 afterwards (on the confirming pairs' salted calls), and
// fails from its call number failAt on when that is set.
type wavering struct {
	calls, bad atomic.Int64
	failAt     int64
}

func (j *wavering) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	n := j.calls.Add(1)
	if j.failAt > 0 && n >= j.failAt {
		return judge.Answer{}, errors.New("the plugin crashed")
	}
	if q.Kind == "test.whole" {
		return judge.Answer{JSON: []byte(`{}`), Model: "m"}, nil
	}
	var in struct{ Description string }
	if err := json.Unmarshal(q.Input, &in); err != nil {
		return judge.Answer{}, err
	}
	if strings.Contains(in.Description, "bad") && j.bad.Add(1) == 1 {
		return judge.Answer{JSON: []byte(`{"n": 1, "why": "it says bad"}`), Model: "m"}, nil
	}
	return judge.Answer{JSON: []byte(`{"n": 5, "why": "clear"}`), Model: "m"}, nil
}

// runWith runs a gate of r between base and head with the judge j.
func runWith(r *rubric.Rubric, j ask.Judge, base, head *surface.Surface) (*gate.Report, error) {
	id := judge.Identity{Plugin: "rater", Version: "1", Model: "m"}
	return gate.Run(context.Background(), gate.Options{
		Rubric: r,
		Base:   gate.Input{Side: gate.Side{Rev: "main"}, Surface: base},
		Head:   gate.Input{Surface: head},
		Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
			return &ask.Asker{Judge: j, Identity: id, Rubric: r, Cache: cache.Memory()}, &report.Judge{Identity: id}, nil
		},
	})
}

// variant is the test rubric with old replaced by new.
func variant(t *testing.T, pairs ...string) *rubric.Rubric {
	t.Helper()
	src := testRubric
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			t.Fatalf("the test rubric lacks %q", pairs[i])
		}
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	r, err := rubric.Load("variant.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestUnconfirmedDropPasses: the first pair drops, but the confirming
// pairs, asked afresh, rate the changed tool as well as the base's: the
// medians are equal and the gate passes after three pairs.
func TestUnconfirmedDropPasses(t *testing.T) {
	j := &wavering{}
	rep, err := runWith(load(t), j, tools(44, nil), tools(44, worse))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Pass || len(rep.Pairs) != 3 || !rep.Pairs[0].Drop || rep.Pairs[1].Drop || rep.Pairs[2].Drop {
		t.Fatalf("got %s over %d pairs (%+v): %s", rep.Decision, len(rep.Pairs), rep.Pairs, rep.Reason)
	}
	if want := "the first pair dropped, but over 3 pairs the head's median 5.0 of the mean rating is not below the base's 5.0"; rep.Reason != want {
		t.Errorf("reason %q, want %q", rep.Reason, want)
	}
	if rep.Medians == nil || rep.Medians.Head != "5.0" || rep.Medians.HeadExact != "5" {
		t.Errorf("medians %+v", rep.Medians)
	}
}

// TestEvenPairsMedian: with one confirming pair the median is the mean
// of two rounded values, shown with one more digit and exactly, and
// the decision compares the exact medians.
func TestEvenPairsMedian(t *testing.T) {
	r := variant(t, "confirm        = 2", "confirm        = 1")
	rep, err := runWith(r, &wavering{}, tools(44, nil), tools(44, worse))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Block || len(rep.Pairs) != 2 {
		t.Fatalf("got %s over %d pairs: %s", rep.Decision, len(rep.Pairs), rep.Reason)
	}
	// Pair 1: head 4.9, pair 2: head 5.0; base 5.0 twice.
	if m := rep.Medians; m == nil || m.Head != "4.95" || m.HeadExact != "99/20" || m.Base != "5.0" || m.BaseExact != "5" {
		t.Errorf("medians %+v", rep.Medians)
	}
	if !strings.Contains(rep.Reason, "median over 2 pairs is 4.95, below the base's 5.0") {
		t.Errorf("reason %q", rep.Reason)
	}
}

// TestInvalidConfirmingPairKeepsWhatWasMade: a judge that fails during a
// confirming pair makes the gate INVALID; the report keeps the pairs
// made and counts every call, the failed pair's too.
func TestInvalidConfirmingPairKeepsWhatWasMade(t *testing.T) {
	// Pair 1 makes 44 + 1 + 2 calls; the second call of pair 2 fails.
	j := &wavering{failAt: 47 + 2}
	rep, err := runWith(load(t), j, tools(44, nil), tools(44, worse))
	if err == nil || rep.Decision != gate.Invalid || rep.ExitCode != 2 {
		t.Fatalf("got %v, %s: %s", err, rep.Decision, rep.Reason)
	}
	if len(rep.Pairs) != 1 || rep.Pairs[0].Calls.Model != 47 {
		t.Fatalf("pairs %+v", rep.Pairs)
	}
	if rep.Calls.Model < 48 || int64(rep.Calls.Model) > j.calls.Load() {
		t.Errorf("the report counts %d calls, the judge had %d", rep.Calls.Model, j.calls.Load())
	}
	if len(rep.Fallen) != 1 || rep.Judge == nil {
		t.Errorf("fallen %+v, judge %+v", rep.Fallen, rep.Judge)
	}
}

// TestInvalidCountsCalls: a judge that fails on the first pair still
// leaves the calls it made in the report.
func TestInvalidCountsCalls(t *testing.T) {
	rep, err := runWith(load(t), &wavering{failAt: 3}, tools(5, nil), tools(5, worse))
	if err == nil || rep.Decision != gate.Invalid {
		t.Fatalf("got %v, %s", err, rep.Decision)
	}
	if rep.Calls.Model == 0 || rep.Calls.Questions == 0 {
		t.Errorf("calls %+v", rep.Calls)
	}
}

// TestHashesFromTheSurfaces: the "unchanged" shortcut compares hashes
// Run computes itself, whatever hashes the caller passed.
func TestHashesFromTheSurfaces(t *testing.T) {
	f := newFixture(t)
	base, head := tools(4, nil), tools(4, worse)
	rep, err := gate.Run(context.Background(), gate.Options{
		Rubric: f.r,
		Base:   gate.Input{Side: gate.Side{Rev: "main", Hash: "sha256:same", ToolCount: 9}, Surface: base},
		Head:   gate.Input{Side: gate.Side{Hash: "sha256:same"}, Surface: head},
		Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
			return f.asker(), &report.Judge{Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m"}}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Block || len(rep.Pairs) == 0 {
		t.Fatalf("got %s over %d pairs: %s", rep.Decision, len(rep.Pairs), rep.Reason)
	}
	if rep.Base.Hash != base.Hash() || rep.Head.Hash != head.Hash() || rep.Base.ToolCount != 4 || rep.Base.Rev != "main" {
		t.Errorf("sides %+v, %+v", rep.Base, rep.Head)
	}
}

// TestInformation: every surface value that fell is listed by its own
// name, two with the same values included; so are the number members of
// the surface report blocks; the score and a member that only repeats a
// metric are not listed again.
func TestInformation(t *testing.T) {
	r := variant(t,
		`metric "lowest" { value = "min(tools.map(t, t.score))" }`,
		`metric "lowest" { value = "min(tools.map(t, t.score))" }
    metric "mean_again" { value = "mean(tools.map(t, t.score))" }
    report "server" {
      mean  = "metrics.mean"
      worst = "min(tools.map(t, t.score)) * 10"
      label = "'rated'"
    }`)
	rep, err := runWith(r, &rater{}, tools(44, nil), tools(44, worse))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rep.Information {
		got = append(got, fmt.Sprintf("%s %s->%s", c.Name, c.Base, c.Head))
	}
	want := "mean 5->4.909, lowest 5->1, mean_again 5->4.909, server.worst 50->10"
	if strings.Join(got, ", ") != want {
		t.Errorf("information %s, want %s", strings.Join(got, ", "), want)
	}
}

// TestFractionalDimensions: a dimension whose score is a fraction is
// written as a decimal, so the report stays valid JSON.
func TestFractionalDimensions(t *testing.T) {
	r := variant(t, `dims = "{'clarity': answers.rate.n, 'length': 3}"`, `dims = "{'clarity': answers.rate.n / 3, 'length': 3}"`)
	rep, err := runWith(r, &rater{}, tools(3, nil), tools(3, worse))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Fallen) != 1 || len(rep.Fallen[0].Dimensions) != 1 {
		t.Fatalf("fallen %+v", rep.Fallen)
	}
	if d := rep.Fallen[0].Dimensions[0]; d.Base != "1.667" || d.Head != "0.333" {
		t.Errorf("dimension %+v", d)
	}
	if err := gate.Write(io.Discard, rep); err != nil {
		t.Errorf("write: %v", err)
	}
}

// TestNullGateValue: when the gate's own formula gives null, the reason
// names the formula and the side.
func TestNullGateValue(t *testing.T) {
	r := variant(t, `value          = "metrics.mean"`, `value          = "size(tools) > 3 ? metrics.mean : null"`)
	rep, err := runWith(r, &rater{}, tools(3, nil), tools(3, worse))
	if err == nil || rep.Decision != gate.Invalid {
		t.Fatalf("got %v, %s", err, rep.Decision)
	}
	if want := `the gate's value formula "size(tools) > 3 ? metrics.mean : null" gave null for the base`; !strings.Contains(rep.Reason, want) {
		t.Errorf("reason %q lacks %q", rep.Reason, want)
	}
}

// garbler answers like rater, but unreadably for a description that
// says "garbled".
type garbler struct{ rater }

func (j *garbler) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if q.Kind == "test.rate" && strings.Contains(string(q.Input), "garbled") {
		j.calls.Add(1)
		return judge.Answer{JSON: []byte(`{"n": "five"}`), Model: "m"}, nil
	}
	return j.rater.Ask(ctx, q)
}

// TestUnscoredToolIsInvalid: a rubric that rolls up the tools it could
// score (min_scored) scores the head with one tool of four unreadable,
// but the gate decides only on every tool: INVALID, naming the tool.
func TestUnscoredToolIsInvalid(t *testing.T) {
	r, err := rubric.Load("rated.hcl", []byte(strings.Replace(testRubric, `version = "1"`, `version = "1"
  min_scored = 0.5`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	garbled := func(i int, def map[string]any) {
		if i == 2 {
			def["description"] = "A garbled description."
		}
	}
	j := &garbler{}
	id := judge.Identity{Plugin: "rater", Version: "1", Model: "m"}
	head := tools(4, garbled)
	// Scored alone, the head has a report: three tools, one unscored.
	rep, err := score.Run(context.Background(), r, head, score.Options{Asker: &ask.Asker{Judge: j, Identity: id, Rubric: r}})
	if err != nil || len(rep.Tools) != 3 || len(rep.UnscoredTools) != 1 || rep.UnscoredTools[0].Name != "tool_02" {
		t.Fatalf("score: %v, %d tools, unscored %+v", err, len(rep.Tools), rep.UnscoredTools)
	}
	g, err := gate.Run(context.Background(), gate.Options{
		Rubric: r,
		Base:   gate.Input{Side: gate.Side{Rev: "main"}, Surface: tools(4, nil)},
		Head:   gate.Input{Surface: head},
		Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
			return &ask.Asker{Judge: j, Identity: id, Rubric: r}, &report.Judge{Identity: id}, nil
		},
	})
	if err == nil || g.Decision != gate.Invalid || g.ExitCode != 2 {
		t.Fatalf("gate: %v, %+v", err, g)
	}
	// The reason's own advice comes first: a replayed answer is the same
	// at every attempt, so running the gate again is no remedy for it.
	if !strings.Contains(g.Reason, "scoring the head: 1 of its 4 tools could not be scored (tool_02)") ||
		!strings.HasSuffix(g.Reason, "the gate decides only when every tool is scored: do what the reason says, or, when the judge's answer was unreadable by chance, run the gate again") {
		t.Errorf("reason %q", g.Reason)
	}
}

// TestReadNamesTheWrongKind: a file of another kind given as a gate
// report is named for what it is, not "gate report version 0".
func TestReadNamesTheWrongKind(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ doc, want string }{
		{`{"report_version": 3, "tools": []}`, "sq.json is a score report (rubric score), not a gate report (write one with rubric gate)"},
		{`{"calibration_version": 1}`, "sq.json is a calibration record (rubric calibrate), not a gate report"},
		{`{"gate_version": 7}`, "sq.json: gate report version 7, this rubric reads version 1"},
	} {
		path := filepath.Join(dir, "sq.json")
		if err := os.WriteFile(path, []byte(tt.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := gate.Read(path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.doc, err, tt.want)
		}
	}
}

// lenRubric is a rubric that asks nothing: one check, that a tool's
// description is short.
func lenRubric(t *testing.T) *rubric.Rubric {
	t.Helper()
	r, err := rubric.Load("len.hcl", []byte(`
rubric "len" {
  version = "1"
  grades  = { A = 0 }
  check "short" {
    points = 10
    pass   = "size(tool.description) < 20"
    issue  = "long"
  }
  tool { score = "sum(checks.map(c, c.points * c.credit))" }
  surface { score = "mean(tools.map(t, t.score))" }
}`))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDropFromAnAddedTool: a change that adds a poorly described tool
// lowers the mean although no tool the base has fell; the report names
// the added tool, its score and what it costs the mean, which with the
// tools that fell makes up the mean's change, and leaves out an added
// tool at the base's mean or above.
func TestDropFromAnAddedTool(t *testing.T) {
	f := newFixture(t)
	head := tools(4, worse)
	head.Tools = append(head.Tools,
		surface.NewTool("tool_good", map[string]any{"name": "tool_good", "description": "Does the good thing well.", "inputSchema": map[string]any{"type": "object"}}),
		surface.NewTool("tool_new", map[string]any{"name": "tool_new", "description": "A bad description.", "inputSchema": map[string]any{"type": "object"}}))
	rep, err := f.run(t, tools(4, nil), head)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Block {
		t.Fatalf("got %s: %s", rep.Decision, rep.Reason)
	}
	// Base: four fives, a mean of 5. Head: three fives, tool_02's one,
	// tool_good's five and tool_new's one, 22/6. Each one costs
	// (1 - 5) / 6 = -2/3, and the two make up 22/6 - 5 = -4/3.
	if len(rep.Fallen) != 1 || rep.Fallen[0].CostExact != "-2/3" {
		t.Errorf("fallen %+v", rep.Fallen)
	}
	if len(rep.AddedBelow) != 1 {
		t.Fatalf("added below the mean: %+v", rep.AddedBelow)
	}
	if a := rep.AddedBelow[0]; a.Tool != "tool_new" || a.Head != "1.0" || a.CostExact != "-2/3" || a.Cost != "-0.667" {
		t.Errorf("added below the mean: %+v", a)
	}
	var md, text bytes.Buffer
	if err := gate.WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if err := gate.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	if want := "### Added tools below the base's mean (pair 1)\n\n| tool | head | costs the unrounded mean |\n|---|---|---|\n| `tool_new` | 1.0 | -0.667 |\n"; !strings.Contains(md.String(), want) {
		t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
	}
	if want := "added below the base's mean: tool_new 1.0 (costs the mean -0.667)\n"; !strings.Contains(text.String(), want) {
		t.Errorf("the text lacks %q:\n%s", want, text.String())
	}
	var js bytes.Buffer
	if err := gate.Write(&js, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"added_below": [`) || !strings.Contains(js.String(), `"cost_exact": "-2/3"`) {
		t.Errorf("gate.json lacks added_below:\n%s", js.String())
	}
}

// TestEmptyBasePasses: a base with no tools has nothing that can get
// worse, and a rubric grades no empty surface: the change that gives a
// server its first tools passes without a judge, rather than being
// INVALID on every push; a lock and breaking changes still decide.
func TestEmptyBasePasses(t *testing.T) {
	f := newFixture(t)
	rep, err := f.run(t, &surface.Surface{}, tools(3, nil))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Pass || rep.ExitCode != 0 || len(rep.Pairs) != 0 || f.starts != 0 {
		t.Fatalf("got %s (exit %d, %d pairs, %d judge starts): %s", rep.Decision, rep.ExitCode, len(rep.Pairs), f.starts, rep.Reason)
	}
	if want := "the base has no tools, so none can have got worse: the head adds 3 tools (rubric score grades them)"; rep.Reason != want {
		t.Errorf("reason %q, want %q", rep.Reason, want)
	}
	if len(rep.Added) != 3 || rep.Contract.Compatible != 3 {
		t.Errorf("added %v, contract %+v", rep.Added, rep.Contract)
	}
	locked, err := gate.Run(context.Background(), gate.Options{
		Rubric: f.r, Lock: lock.New(&surface.Surface{}), LockFile: "rubric.lock.json",
		Base: gate.Input{Side: gate.Side{Rev: "main"}, Surface: &surface.Surface{}},
		Head: gate.Input{Surface: tools(1, nil)},
	})
	if err != nil || locked.Decision != gate.Block || !strings.Contains(locked.Reason, "(tool_00 added)") || !strings.Contains(locked.Reason, "the quality alone passes: the base has no tools") {
		t.Errorf("with a lock of no tools: %v, %s: %s", err, locked.Decision, locked.Reason)
	}
}

// TestEmptyHeadBlocks: a head with no tools removes every one of the
// base's, as much worse as definitions get: BLOCK, without a judge,
// rather than INVALID, which says to run again.
func TestEmptyHeadBlocks(t *testing.T) {
	f := newFixture(t)
	rep, err := f.run(t, tools(3, nil), &surface.Surface{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != gate.Block || rep.ExitCode != 1 || len(rep.Pairs) != 0 || f.starts != 0 {
		t.Fatalf("got %s (exit %d, %d pairs, %d judge starts): %s", rep.Decision, rep.ExitCode, len(rep.Pairs), f.starts, rep.Reason)
	}
	if want := "the head has no tools: it removes all 3 of the base's; if the server failed to register them, fix its start"; rep.Reason != want {
		t.Errorf("reason %q, want %q", rep.Reason, want)
	}
	if len(rep.Removed) != 3 || rep.Contract.Breaking != 3 {
		t.Errorf("removed %v, contract %+v", rep.Removed, rep.Contract)
	}
}

// Package reporttest builds real reports for the tests of the report
// writers: a surface scored with the built-in schema-quality rubric, and
// one scored with TDQS from recorded answers, one of them unreadable.
package reporttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/rubrics"
)

// Version is the program version the reports record.
const Version = "0.0.0-test"

// Score parses data as a surface called name and scores it with
// schema-quality; the report's target is name and its version Version.
func Score(t testing.TB, name string, data []byte) *report.Report {
	t.Helper()
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{Target: name, Version: Version})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Captures are the real captures of the shared corpus that the writers'
// tests score.
var Captures = []string{
	"desktop-commander.tools.json",
	"everything.tools.json",
	"filesystem.tools.json",
	"github.tools.json",
	"memory.tools.json",
	"postgres.tools.json",
}

// Capture scores a real capture of the shared corpus,
// engine/score/testdata/corpus, wherever the calling test runs.
func Capture(t testing.TB, name string) *report.Report {
	t.Helper()
	return ScoreFile(t, CapturePath(t, name))
}

// CapturePath is the path of a capture of the shared corpus.
func CapturePath(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(engineDir(t), "score", "testdata", "corpus", name)
}

// Testdata scores a file of engine/report/testdata, wherever the calling
// test runs.
func Testdata(t testing.TB, rel string) *report.Report {
	t.Helper()
	return ScoreFile(t, filepath.Join(engineDir(t), "report", "testdata", rel))
}

// engineDir is the engine folder of the module the calling test runs in.
func engineDir(t testing.TB) string {
	t.Helper()
	root, err := buildtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "engine")
}

// Clean scores one tool that passes every check.
func Clean(t testing.TB) *report.Report {
	t.Helper()
	return Score(t, "clean.tools.json", []byte(`{"tools":[{"name":"perfect","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"The query."}},"required":["q"]}}]}`))
}

// Empty scores a surface without tools, which has no overall score.
func Empty(t testing.TB) *report.Report {
	t.Helper()
	return Score(t, "empty.tools.json", []byte(`{"tools":[]}`))
}

// Incomplete is Empty made into a run that did not finish: no score, and a
// warning that says why.
func Incomplete(t testing.TB) *report.Report {
	t.Helper()
	rep := Empty(t)
	rep.Complete, rep.NoScore, rep.Warnings = false, "", []string{"scoring stopped: the judge did not answer"}
	return rep
}

// PartialUnscored is the tool Partial's report leaves unscored.
const PartialUnscored = "update_item"

// Partial scores five tools with TDQS, whose min_scored lets it score
// the tools it can, from answers recorded for them
// (rubrics/testdata/tdqs13/partial.answers.jsonl, each found by its
// question's kind and subject, as the replay judge finds them; the
// engine may not import a judge). The answer about PartialUnscored
// breaks the answer schema, so the report is complete, has a score, and
// lists that tool among the unscored, not among the tools.
func Partial(t testing.TB) *report.Report {
	t.Helper()
	root, err := buildtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "rubrics", "testdata", "tdqs13")
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	j, err := readRecorded(filepath.Join(dir, "partial.answers.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "partial.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("partial.tools.json", b)
	if err != nil {
		t.Fatal(err)
	}
	id := judge.Identity{Plugin: "recorded", Version: "1", Model: "hand-written"}
	rep, err := score.Run(context.Background(), r, s, score.Options{Target: "partial.tools.json", Version: Version,
		Asker: &ask.Asker{Judge: j, Identity: id, Rubric: r}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Score == nil || len(rep.UnscoredTools) != 1 || rep.UnscoredTools[0].Name != PartialUnscored {
		t.Fatalf("the partial report: complete %v, score %v, unscored %+v; want complete, a score and %s unscored", rep.Complete, rep.Score, rep.UnscoredTools, PartialUnscored)
	}
	return rep
}

// recorded answers each question with the answer a file of JSON Lines
// holds for its kind and subject ({"kind", "subject", "answer"}; lines
// starting with # are comments).
type recorded map[[2]string][]byte

func readRecorded(path string) (recorded, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := recorded{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var e struct {
			Kind    string          `json:"kind"`
			Subject string          `json:"subject"`
			Answer  json.RawMessage `json:"answer"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		m[[2]string{e.Kind, e.Subject}] = e.Answer
	}
	return m, sc.Err()
}

// Ask returns the recorded answer to q.
func (m recorded) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	a, ok := m[[2]string{q.Kind, q.Subject}]
	if !ok {
		return judge.Answer{}, fmt.Errorf("no recorded answer for %s about %q", q.Kind, q.Subject)
	}
	return judge.Answer{JSON: a, Model: "hand-written"}, nil
}

// ScoreFile scores the surface file at path, named by its base name.
func ScoreFile(t testing.TB, path string) *report.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Score(t, filepath.Base(path), b)
}

// Golden compares got with the golden file at path, or rewrites the file
// first when update is set (the tests' -update flag).
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s; if the change is intended, run go test -update and review the diff\n--- got ---\n%s", path, got)
	}
}

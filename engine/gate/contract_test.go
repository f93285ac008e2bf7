package gate_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/surface"
)

// removeLast drops a surface's last tool: a breaking change that leaves
// the mean rating of the others as it was.
func removeLast(s *surface.Surface) *surface.Surface {
	return &surface.Surface{Tools: s.Tools[:len(s.Tools)-1]}
}

func optionalParam(i int, def map[string]any) {
	if i == 1 {
		def["inputSchema"] = map[string]any{"type": "object", "properties": map[string]any{"tag": map[string]any{"type": "string"}}}
	}
}

// TestContractDecides: the contract diff is in every report that read
// both sides, and it decides only when the gate fails on breaking
// changes; then a breaking change blocks whatever the quality says,
// and the reason gives both.
func TestContractDecides(t *testing.T) {
	cases := []struct {
		name           string
		base, head     *surface.Surface
		failOnBreaking bool
		judgeFails     bool
		decision       gate.Decision
		breaking       int
		compatible     int
		reason         []string
	}{
		{"unchanged", tools(4, nil), tools(4, nil), true, false, gate.Pass, 0, 0, []string{"unchanged"}},
		{"breaking, reported only", tools(4, nil), removeLast(tools(4, nil)), false, false, gate.Pass, 1, 0, []string{"holds"}},
		{"breaking blocks", tools(4, nil), removeLast(tools(4, nil)), true, false, gate.Block, 1, 0,
			[]string{`1 breaking change to the tools' contract, and the gate fails on breaking changes (tool "tool_03" removed)`, "the quality alone passes: "}},
		{"breaking and a drop", tools(4, nil), removeLast(tools(4, worse)), true, false, gate.Block, 1, 1,
			[]string{"drops", "; and 1 breaking change to the tools' contract"}},
		{"compatible only", tools(4, nil), tools(4, optionalParam), true, false, gate.Pass, 0, 1, []string{"holds"}},
		{"a failed judge stays INVALID", tools(4, nil), removeLast(tools(4, worse)), true, true, gate.Invalid, 1, 1, []string{"the plugin crashed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.judgeFails {
				f.j.fail = errors.New("the plugin crashed")
			}
			rep, _ := gate.Run(context.Background(), gate.Options{
				Rubric:         f.r,
				Base:           gate.Input{Side: gate.Side{Rev: "main"}, Surface: c.base},
				Head:           gate.Input{Surface: c.head},
				FailOnBreaking: c.failOnBreaking,
				Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
					return f.asker(), &report.Judge{Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m"}}, nil
				},
			})
			if rep.Decision != c.decision || rep.ExitCode != c.decision.ExitCode() {
				t.Errorf("got %s (exit %d): %s", rep.Decision, rep.ExitCode, rep.Reason)
			}
			for _, w := range c.reason {
				if !strings.Contains(rep.Reason, w) {
					t.Errorf("the reason %q lacks %q", rep.Reason, w)
				}
			}
			ct := rep.Contract
			if ct == nil {
				t.Fatal("no contract in the report")
			}
			if ct.Breaking != c.breaking || ct.Compatible != c.compatible || ct.FailOnBreaking != c.failOnBreaking {
				t.Errorf("contract: %d breaking, %d compatible, fail on breaking %v; want %d, %d, %v", ct.Breaking, ct.Compatible, ct.FailOnBreaking, c.breaking, c.compatible, c.failOnBreaking)
			}
		})
	}
}

// TestContractWritten: the JSON, Markdown and text reports carry the
// contract diff with its paths and values, next to the decision.
func TestContractWritten(t *testing.T) {
	f := newFixture(t)
	base, head := tools(4, nil), removeLast(tools(4, optionalParam))
	rep, err := gate.Run(context.Background(), gate.Options{
		Rubric: f.r, FailOnBreaking: true,
		Base: gate.Input{Side: gate.Side{Rev: "main"}, Surface: base},
		Head: gate.Input{Surface: head},
		Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
			return f.asker(), &report.Judge{Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m"}}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var js, md, text bytes.Buffer
	if err := gate.Write(&js, rep); err != nil {
		t.Fatal(err)
	}
	if err := gate.WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if err := gate.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, got string
		want      []string
	}{
		{"JSON", js.String(), []string{`"fail_on_breaking": true`, `"breaking": 1`, `"kind": "tool-removed"`, `"path": "/name"`, `"before": "tool_03"`, `"kind": "parameter-added"`, `"path": "/inputSchema/properties/tag"`, `"after": {`}},
		{"Markdown", md.String(), []string{"### Contract: 1 breaking · 0 risky · 0 information · 1 compatible", "Breaking changes block this gate.",
			"| breaking | `tool_03` | tool \"tool\\_03\" removed | `/name` | `\"tool_03\"` |  |",
			"| compatible | `tool_01` | optional parameter \"tag\" added | `/inputSchema/properties/tag` |  | `{\"type\":\"string\"}` |"}},
		{"text", text.String(), []string{"contract: 1 breaking · 0 risky · 0 information · 1 compatible\n", "  breaking tool_03 /name: tool \"tool_03\" removed\n", "\nBLOCK: 1 breaking change"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.got, w) {
				t.Errorf("the %s lacks %q:\n%s", c.name, w, c.got)
			}
		}
	}
	// The contract sits next to the decision, before the calls.
	if i, j := strings.Index(md.String(), "### Contract"), strings.Index(md.String(), "| pair | calls"); i < 0 || j < 0 || i > j {
		t.Errorf("the contract comes after the calls table:\n%s", md.String())
	}
	// A saved report reads back with its contract.
	back, err := readBack(t, js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if back.Contract == nil || len(back.Contract.Changes) != 2 || string(back.Contract.Changes[0].Before) != `"tool_03"` {
		t.Errorf("read back: %+v", back.Contract)
	}
}

func readBack(t *testing.T, b []byte) (*gate.Report, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return gate.Read(path)
}

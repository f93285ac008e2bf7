package gate_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestLockDecides: given a lock, the gate verifies the head's tools
// against it, and a tool added, removed or changed since blocks whatever
// the quality says, unchanged definitions included; the reason names
// the tools, and gives the quality's decision and the contract's too.
func TestLockDecides(t *testing.T) {
	cases := []struct {
		name           string
		locked         *surface.Surface
		base, head     *surface.Surface
		failOnBreaking bool
		decision       gate.Decision
		changes        []string // tool kind
		reason         []string
	}{
		{"the head as locked", tools(4, worse), tools(4, nil), tools(4, worse), false, gate.Block, nil, []string{"drops"}},
		{"the head as locked, better", tools(4, better), tools(4, nil), tools(4, better), false, gate.Pass, nil, []string{"holds"}},
		{"unchanged, and as locked", tools(4, nil), tools(4, nil), tools(4, nil), false, gate.Pass, nil, []string{"unchanged"}},
		{"unchanged, but not as locked", tools(4, better), tools(4, nil), tools(4, nil), false, gate.Block, []string{"tool_02 changed"},
			[]string{"the head's tools differ from the lock rubric.lock.json (tool_02 changed): if the change is meant, approve it: run rubric lock with the gate's server or target, and commit rubric.lock.json", "the quality alone passes: the tool definitions are unchanged"}},
		{"a better head not locked", tools(4, nil), tools(4, nil), tools(4, better), false, gate.Block, []string{"tool_02 changed"},
			[]string{"differ from the lock rubric.lock.json (tool_02 changed)", "the quality alone passes: "}},
		{"a drop, not locked", tools(4, nil), tools(4, nil), tools(4, worse), false, gate.Block, []string{"tool_02 changed"},
			[]string{"drops", "; and the head's tools differ from the lock"}},
		{"added, and breaking too", tools(3, nil), tools(5, nil), removeLast(tools(5, nil)), true, gate.Block, []string{"tool_03 added"},
			[]string{"differ from the lock rubric.lock.json (tool_03 added): if the change is meant, approve it: run rubric lock with the gate's server or target, and commit rubric.lock.json; and 1 breaking change to the tools' contract"}},
		{"removed", tools(4, nil), tools(4, nil), removeLast(tools(4, nil)), false, gate.Block, []string{"tool_03 removed"},
			[]string{"(tool_03 removed)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			rep, _ := gate.Run(context.Background(), gate.Options{
				Rubric:         f.r,
				Base:           gate.Input{Side: gate.Side{Rev: "main"}, Surface: c.base},
				Head:           gate.Input{Surface: c.head},
				FailOnBreaking: c.failOnBreaking,
				Lock:           lock.New(c.locked), LockFile: "rubric.lock.json",
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
			if rep.Lock == nil || rep.Lock.File != "rubric.lock.json" || rep.Lock.Hash != c.locked.Hash() {
				t.Fatalf("the report's lock: %+v", rep.Lock)
			}
			var got []string
			for _, ch := range rep.Lock.Changes {
				got = append(got, ch.Tool+" "+ch.Kind)
			}
			if strings.Join(got, "; ") != strings.Join(c.changes, "; ") {
				t.Errorf("changes %q, want %q", got, c.changes)
			}
		})
	}
}

// TestLockWritten: the JSON, Markdown and text reports say what differs
// from the lock, and a saved report reads back with it; a gate without a
// lock writes none.
func TestLockWritten(t *testing.T) {
	f := newFixture(t)
	run := func(l *lock.File) *gate.Report {
		rep, err := gate.Run(context.Background(), gate.Options{
			Rubric: f.r, Lock: l, LockFile: "locks/tools.lock.json",
			Base: gate.Input{Side: gate.Side{Rev: "main"}, Surface: tools(4, nil)},
			Head: gate.Input{Surface: tools(4, better)},
			Asker: func(context.Context) (*ask.Asker, *report.Judge, error) {
				return f.asker(), &report.Judge{Identity: judge.Identity{Plugin: "rater", Version: "1", Model: "m"}}, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	write := func(rep *gate.Report) (js, md, text string) {
		var j, m, x bytes.Buffer
		for _, err := range []error{gate.Write(&j, rep), gate.WriteMarkdown(&m, rep), gate.WriteText(&x, rep)} {
			if err != nil {
				t.Fatal(err)
			}
		}
		return j.String(), m.String(), x.String()
	}
	js, md, text := write(run(lock.New(tools(4, nil))))
	for _, c := range []struct {
		name, got string
		want      []string
	}{
		{"JSON", js, []string{`"lock": {`, `"file": "locks/tools.lock.json"`, `"tool": "tool_02"`, `"kind": "changed"`, `"path": "/description"`,
			`"old": "\"Does thing 2 well.\""`, `"new": "\"Does thing 2 well, and says when to use it.\""`}},
		{"Markdown", md, []string{"\n### Lock: 1 tool differs from `locks/tools.lock.json`\n",
			"if the change is meant, run `rubric lock --lock-file locks/tools.lock.json` with the gate's server or target, and commit `locks/tools.lock.json`.\n", "| `tool_02` | changed | `/description` |",
			"```\nchanged: tool_02\n  /description:\n    - \"Does thing 2 well.\"\n    + \"Does thing 2 well, and says when to use it.\"\n```\n"}},
		{"text", text, []string{"lock: 1 tool differs from locks/tools.lock.json\n  changed: tool_02\n    /description:\n      - \"Does thing 2 well.\"\n",
			"\nBLOCK: the head's tools differ from the lock locks/tools.lock.json (tool_02 changed): if the change is meant, approve it: run rubric lock --lock-file locks/tools.lock.json with the gate's server or target, and commit locks/tools.lock.json"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.got, w) {
				t.Errorf("the %s lacks %q:\n%s", c.name, w, c.got)
			}
		}
	}
	back, err := readBack(t, []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if back.Lock == nil || len(back.Lock.Changes) != 1 || back.Lock.Changes[0].Fields[0].Path != "/description" {
		t.Errorf("read back: %+v", back.Lock)
	}

	js, md, text = write(run(lock.New(tools(4, better))))
	if !strings.Contains(md, "\n### Lock: every tool is as `locks/tools.lock.json` locked it\n") || !strings.Contains(text, "lock: every tool is as locks/tools.lock.json locked it\n") ||
		!strings.Contains(js, `"changes": []`) {
		t.Errorf("a head as locked:\n%s\n%s\n%s", js, md, text)
	}
	js, md, text = write(run(nil))
	if strings.Contains(js, `"lock"`) || strings.Contains(md, "Lock") || strings.Contains(text, "lock:") {
		t.Errorf("a gate without a lock reports one:\n%s\n%s\n%s", js, md, text)
	}
}

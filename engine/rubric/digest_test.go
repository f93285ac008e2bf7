package rubric

import (
	"os"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

func mustNum(s string) num.Num { return num.MustParse(s) }

func loadString(t *testing.T, src string) *Rubric {
	t.Helper()
	r, err := Load("test.hcl", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return r
}

// TestDigest, TestQuestionDigests and TestGateDigest load whole rubrics
// again and again to see what moves a digest: pure computation, five
// times slower under -race (7.3 CPU-s there against 1.5 without), where
// TestValidRubricsLoad and the smaller tests load rubrics for the race
// detector. make test runs them in its pass without -race
// (heavytest.Later).
func TestDigest(t *testing.T) {
	heavytest.Later(t)
	b, err := os.ReadFile("../../rubrics/schema-quality-v1.hcl")
	if err != nil {
		t.Fatal(err)
	}
	base := string(b)
	baseDigest := loadString(t, base).Digest

	same := []struct{ name, edit string }{
		{"comments", "# a new comment\n" + strings.ReplaceAll(base, "# Schema Quality", "# Schema  Quality, reworded")},
		{"blank lines and indentation", strings.ReplaceAll(base, "\n  check", "\n\n\n      check")},
		{"spaces inside a formula", strings.Replace(base, `"size(params(tool)) > 0"`, `"size( params(tool) )>0"`, 1)},
		{"title and description", strings.Replace(base, `title       = "Schema Quality"`, `title       = "Quality of schemas"`, 1)},
		{"issue text", strings.Replace(base, "parameters without a description: {items}", "undescribed: {items}", 1)},
		{"version", strings.Replace(base, `version     = "1.1.0"`, `version     = "1.1.1"`, 1)},
		{"number spelling", strings.Replace(base, "has_properties    = 15", "has_properties    = 15.0", 1)},
		{"the order of weights", strings.Replace(base, "    input_schema      = 10\n    has_properties    = 15\n", "    has_properties    = 15\n    input_schema      = 10\n", 1)},
	}
	for _, tt := range same {
		if tt.edit == base {
			t.Fatalf("%s: the edit changed nothing", tt.name)
		}
		if d := loadString(t, tt.edit).Digest; d != baseDigest {
			t.Errorf("%s moved the digest", tt.name)
		}
	}

	moved := []struct{ name, edit string }{
		{"a weight", strings.Replace(base, "described_params  = 20", "described_params  = 15", 1)},
		{"a formula", strings.Replace(base, `"size(params(tool)) > 0"`, `"size(params(tool)) > 1"`, 1)},
		{"the score formula", strings.Replace(base, `"mean(tools.map(t, t.score))"`, `"median(tools.map(t, t.score))"`, 1)},
		{"a grade threshold", strings.Replace(base, "B = 75", "B = 80", 1)},
		{"a grade letter", strings.Replace(base, "B = 75", "Bee = 75", 1)},
		{"rounding", strings.Replace(base, "round       = 1", "round       = 2", 1)},
		{"stop", strings.Replace(base, "stop   = true", "stop   = false", 1)},
		{"a check's name", strings.Replace(strings.Replace(base, `check "has_properties"`, `check "has_props"`, 1), "has_properties    = 15", "has_props = 15", 1)},
		{"the order of checks", swapChecks(base)},
		{"a fractional literal", strings.Replace(base, `"size(params(tool)) > 0"`, `"size(params(tool)) > 0.5"`, 1)},
		{"a judge label", strings.Replace(base, "round       = 1", "round       = 1\n  judge_labels = { promptTemplateVersion = \"p-v2\" }", 1)},
	}
	seen := map[string]string{baseDigest: "base"}
	for _, tt := range moved {
		if tt.edit == base {
			t.Fatalf("%s: the edit changed nothing", tt.name)
		}
		d := loadString(t, tt.edit).Digest
		if d == baseDigest {
			t.Errorf("changing %s did not move the digest", tt.name)
		}
		if prev, dup := seen[d]; dup {
			t.Errorf("changing %s gave the same digest as %s", tt.name, prev)
		}
		seen[d] = tt.name
	}
}

func swapChecks(src string) string {
	a := strings.Index(src, `  check "has_properties"`)
	b := strings.Index(src, `  check "declares_required"`)
	c := strings.Index(src, `  check "described_params"`)
	return src[:a] + src[b:c] + src[a:b] + src[c:]
}

func TestDigestIsStableAcrossLoads(t *testing.T) {
	a, _ := LoadFile("../../rubrics/schema-quality-v1.hcl")
	b, _ := LoadFile("../../rubrics/schema-quality-v1.hcl")
	if a.Digest != b.Digest || string(Canonical(a)) != string(Canonical(b)) {
		t.Fatal("two loads of one file disagree")
	}
}

// TestDigestFollowsExactLiterals: a literal's exact value moves the digest,
// its spelling does not.
func TestDigestFollowsExactLiterals(t *testing.T) {
	b, _ := os.ReadFile("../../rubrics/schema-quality-v1.hcl")
	base := string(b)
	with := func(lit string) string {
		return loadString(t, strings.Replace(base, `"size(params(tool)) > 0"`, `"size(params(tool)) > `+lit+`"`, 1)).Digest
	}
	if with("0.6") != with("0.60") {
		t.Error("0.6 and 0.60 gave different digests")
	}
	// The same float64, a different exact number.
	if with("0.1") == with("0.1000000000000000055511151231257827") {
		t.Error("two different exact literals gave the same digest")
	}
}

// TestQuestionDigests: everything that can change an answer moves both
// the rubric's digest and the question's own; comments and layout move
// neither, and an edit to one question leaves the other's digest alone.
func TestQuestionDigests(t *testing.T) {
	heavytest.Later(t)
	b, err := os.ReadFile("../../rubrics/tdqs-v1.3.hcl")
	if err != nil {
		t.Fatal(err)
	}
	base := string(b)
	r0 := loadString(t, base)
	tool0, coh0 := r0.Questions[0].Digest, r0.Questions[1].Digest
	if same := loadString(t, "# a comment\n"+strings.ReplaceAll(base, "    retries = 2\n", "    retries     =    2\n")); same.Digest != r0.Digest || same.Questions[0].Digest != tool0 {
		t.Error("a comment or spacing moved a digest")
	}
	for _, tt := range []struct{ name, old, new string }{
		{"the system prompt", "You grade one tool definition", "You rate one tool definition"},
		{"the user template", "Grade this tool definition.", "Rate this tool definition."},
		{"the answer schema", `"minimum": 1, "maximum": 5},
              "justification": {"type": "string"}
            }
          }
        }
      }
    JSON
  }

  question "coherence"`, `"minimum": 0, "maximum": 5},
              "justification": {"type": "string"}
            }
          }
        }
      }
    JSON
  }

  question "coherence"`},
		{"the retries", "    retries = 2\n    input   = <<-CEL\n      {\n        'tool'", "    retries = 3\n    input   = <<-CEL\n      {\n        'tool'"},
		{"the input", "'paramCount': signals.paramCount,", "'paramCount': 0,"},
		{"the shared value", "{'names': surface_signals.toolNames}", "{'names': []}"},
		{"the shared prompt", "The server's tools, this one among them:", "All the server's tools:"},
		{"when it is asked", `when    = "!signals.noDescription"`, `when    = "true"`},
		{"the kind", `kind    = "tdqs.tool"`, `kind    = "tdqs.tool.v2"`},
	} {
		if !strings.Contains(base, tt.old) {
			t.Fatalf("%s: %q is not in the rubric", tt.name, tt.old)
		}
		r := loadString(t, strings.Replace(base, tt.old, tt.new, 1))
		if r.Digest == r0.Digest || r.Questions[0].Digest == tool0 {
			t.Errorf("changing %s did not move the digests", tt.name)
		}
		if r.Questions[1].Digest != coh0 {
			t.Errorf("changing %s of the tool question moved the coherence question's digest", tt.name)
		}
	}
	// A weight moves the rubric's digest but not the question's, so that
	// rescore, which matches answers by question digest, can reuse a
	// report's answers under a contested weight.
	w := loadString(t, strings.Replace(base, "purpose_clarity         = 25", "purpose_clarity         = 30", 1))
	if w.Digest == r0.Digest || w.Questions[0].Digest != tool0 {
		t.Error("a weight should move the rubric's digest and leave the question's alone")
	}
}

// TestGateDigest: what decides a gate moves the digest, its title does
// not, and a rubric without a gate block keeps the digest it had before
// gate blocks existed.
func TestGateDigest(t *testing.T) {
	heavytest.Later(t)
	b, err := os.ReadFile("../../rubrics/tdqs-v1.3.hcl")
	if err != nil {
		t.Fatal(err)
	}
	base := string(b)
	r0 := loadString(t, base)
	if g := r0.GateRule(); !g.Declared || g.Round != 1 || g.Confirm != 2 || g.Value == nil || g.Scores != "scores" {
		t.Fatalf("the TDQS gate reads as %+v", g)
	}
	if r := loadString(t, strings.Replace(base, `title          = "mean TDQS"`, `title          = "the mean"`, 1)); r.Digest != r0.Digest {
		t.Error("the gate's title moved the digest")
	}
	seen := map[string]string{r0.Digest: "base"}
	for _, tt := range []struct{ name, old, new string }{
		{"the value", `value          = "metrics.meanTdqs"`, `value          = "metrics.minTdqs"`},
		{"the rounding", "    round          = 1\n", "    round          = 2\n"},
		{"the confirming pairs", "confirm        = 2", "confirm        = 4"},
		{"the scores member", `scores         = "scores"`, `scores         = "tdqs"`},
	} {
		if !strings.Contains(base, tt.old) {
			t.Fatalf("%s: %q is not in the rubric", tt.name, tt.old)
		}
		d := loadString(t, strings.Replace(base, tt.old, tt.new, 1)).Digest
		if prev, dup := seen[d]; dup {
			t.Errorf("changing %s gave the digest of %s", tt.name, prev)
		}
		seen[d] = tt.name
	}

	// Schema Quality has no gate block: its canonical form has no gate
	// member, and its rule is the overall score, with no confirming pairs
	// since it asks no judge.
	sq, err := LoadFile("../../rubrics/schema-quality-v1.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(Canonical(sq)), `"gate"`) {
		t.Error("a rubric without a gate block has one in its canonical form")
	}
	if g := sq.GateRule(); g.Declared || g.Value != nil || g.Confirm != 0 || g.Round != sq.Round {
		t.Errorf("the default rule of Schema Quality is %+v", g)
	}
}

// TestTitlesMoveNoDigest: the titles a tool block gives the checks of
// its issues formula are read, and move no digest, as a check block's
// title does not: they name checks for a fix list, and move no score.
func TestTitlesMoveNoDigest(t *testing.T) {
	const src = `rubric "t" {
  version = "1"
  grades  = { A = 0 }
  tool {
    score  = "1"
    issues = "[{'check': 'shadow', 'message': 'm'}, {'check': 'Two Words', 'message': 'm'}]"
  }
  surface { score = "1" }
}
`
	without := loadString(t, src)
	with := loadString(t, strings.Replace(src, "    score  = \"1\"\n", "    score  = \"1\"\n    titles = { shadow = \"Shadowing\", \"Two Words\" = \"Two words\" }\n", 1))
	if without.Digest != with.Digest {
		t.Errorf("titles moved the digest: %s, then %s", without.Digest, with.Digest)
	}
	if got := with.Tool.Titles; len(got) != 2 || got["shadow"] != "Shadowing" || got["Two Words"] != "Two words" {
		t.Errorf("titles %v", got)
	}
}

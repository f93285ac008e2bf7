package rubric

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// originRubric has formulas written every way the loader reads one: a
// quoted string, heredocs with and without <<-, a CEL message, a let.
const originRubric = `rubric "origins" {
  version = "1"
  grades  = { A = 0 }
  let {
    long = "size(tool.name) > 3"
  }
  check "quoted" {
    points = 1
    pass   = "long && tool.name != ''"
    issue  = cel("'short: ' + tool.name")
  }
  check "dashed" {
    points = 1
    pass   = <<-EOT
      size(tool.name) > 0 &&
        size(tool.name) < 64
    EOT
    issue  = "x"
  }
  check "plain" {
    points = 1
    pass   = <<EOT
size(tool.name) > 0
EOT
    issue  = "x"
  }
  tool    { score = "sum(checks.map(c, c.points * c.credit))" }
  surface { score = "mean(tools.map(t, t.score))" }
}
`

// TestFormulaOrigins: the loader records where each formula's text
// starts in the file (the character after a quote, the first line of a
// heredoc after the indentation <<- removed) and where each let's does,
// for the form of a formula that reads its lets apart.
func TestFormulaOrigins(t *testing.T) {
	r, err := Load("o.hcl", []byte(originRubric))
	if err != nil {
		t.Fatal(err)
	}
	_, lets := r.Checks[0].Pass.Apart()
	if len(lets) != 1 {
		t.Fatalf("the quoted pass reads %d lets apart, want 1", len(lets))
	}
	tests := []struct {
		name string
		p    *lang.Program
		want lang.Origin
	}{
		{"quoted", r.Checks[0].Pass, lang.Origin{File: "o.hcl", Line: 9, Col: 15}},
		{"the let it reads", lets[0].Program, lang.Origin{File: "o.hcl", Line: 5, Col: 13}},
		{"a CEL message", r.Checks[0].Message, lang.Origin{File: "o.hcl", Line: 10, Col: 19}},
		{"a heredoc with <<-", r.Checks[1].Pass, lang.Origin{File: "o.hcl", Line: 15, Col: 7, Indent: 6}},
		{"a heredoc with <<", r.Checks[2].Pass, lang.Origin{File: "o.hcl", Line: 23, Col: 1}},
		{"tool score", r.Tool.Score, lang.Origin{File: "o.hcl", Line: 27, Col: 22}},
	}
	for _, tt := range tests {
		got, ok := tt.p.Origin()
		if !ok || got != tt.want {
			t.Errorf("%s: origin %+v (%v), want %+v", tt.name, got, ok, tt.want)
		}
	}
	// The form reading the lets apart is where a scope evaluates it.
	if a, _ := r.Checks[0].Pass.Apart(); a != nil {
		if got, _ := a.Origin(); got != tests[0].want {
			t.Errorf("the pass read apart: origin %+v, want %+v", got, tests[0].want)
		}
	}
}

// TestPlacesMoveNoDigest: a line added above a formula moves where the
// formula is, which an error names, and not the digest.
func TestPlacesMoveNoDigest(t *testing.T) {
	a := loadString(t, originRubric)
	b := loadString(t, strings.Replace(originRubric, `  check "quoted" {`, "  # a comment above the check\n  check \"quoted\" {", 1))
	if a.Digest != b.Digest {
		t.Errorf("a comment moved the digest: %s, then %s", a.Digest, b.Digest)
	}
	before, _ := a.Checks[0].Pass.Origin()
	after, _ := b.Checks[0].Pass.Origin()
	if after.Line != before.Line+1 || after.Col != before.Col {
		t.Errorf("the pass formula was at %+v, then at %+v: want one line further", before, after)
	}
}

package rubric

import (
	"strings"
	"testing"
)

// TestBoundTools: a rubric whose tool score, computed from the checks
// alone, lies outside its scale for a tool that passes (or fails) every
// check is refused at load, where the loaded file sets the weights; a
// score the checks alone do not decide, or that stays in the scale
// however the points add up, loads.
func TestBoundTools(t *testing.T) {
	standalone := func(weights, score string) string {
		return `rubric "s" {
  version = "1"
  weights = ` + weights + `
  scale {
    min = 0
    max = 100
  }
  check "a" {
    pass  = "has(tool.description)"
    issue = "x"
  }
  check "b" {
    pass  = "has(tool.inputSchema)"
    issue = "y"
  }
  tool {
    metric "sum" { value = "sum(checks.map(c, c.points * c.credit))" }
    score = "` + score + `"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}`
	}
	for _, tt := range []struct {
		name, file, src, want string
	}{
		{"a child's weight past the parent's scale", "testdata/child.hcl", `rubric "c" {
  extends = "extends/scaled.hcl"
  version = "1-c"
  weights = { typed = 40, described = 80 }
}`, `testdata/child.hcl:4:27: with these weights a tool that passes every check scores 120 (the tool score at testdata/extends/scaled.hcl:17), above the scale's max 100 (testdata/extends/scaled.hcl:6): this rubric sets described = 80 (the parent's 60), and its parent's formulas were written for its own weights; make them add up as the parent's do`},
		{"a child's weights that add up as the parent's", "testdata/child.hcl", `rubric "c" {
  extends = "extends/scaled.hcl"
  version = "1-c"
  weights = { typed = 20, described = 80 }
}`, ""},
		{"points past the scale, read through a metric", "t.hcl",
			standalone("{ a = 70, b = 40 }", "metrics.sum"),
			`t.hcl:3:3: with these weights a tool that passes every check scores 110 (the tool score at t.hcl:18), above the scale's max 100 (t.hcl:6): lower the weights or points, or raise the scale's max`},
		{"a tool failing every check below the scale", "t.hcl",
			standalone("{ a = 70, b = 40 }", "100 - sum(checks.map(c, c.points * (1 - c.credit)))"),
			`t.hcl:3:3: with these weights a tool that fails every check scores -10 (the tool score at t.hcl:18), below the scale's min 0 (t.hcl:5): lower the weights or points, or raise the scale's min`},
		{"points past the scale, read by name", "t.hcl",
			standalone("{ a = 70, b = 40 }", "check.a.points * check.a.credit + check.b.points * check.b.credit"),
			`t.hcl:3:3: with these weights a tool that passes every check scores 110 (the tool score at t.hcl:18), above the scale's max 100 (t.hcl:6): lower the weights or points, or raise the scale's max`},
		{"points past the scale, shared out", "t.hcl",
			standalone("{ a = 70, b = 40 }", "100 * metrics.sum / sum(checks.map(c, c.points))"), ""},
		{"a score the checks alone do not decide", "t.hcl",
			standalone("{ a = 70, b = 40 }", "size(tool.name) > 3 ? metrics.sum : num(0)"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.file, []byte(tt.src))
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestOverrides: the weights a child sets over its parent's to other
// numbers are named with their place in the child, in the order
// written; one set to the parent's number is none.
func TestOverrides(t *testing.T) {
	r, err := Load("testdata/child.hcl", []byte(`rubric "c" {
  extends = "extends/scaled.hcl"
  version = "1-c"
  weights = { typed = 50, described = 50 }
}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range r.Overrides {
		got = append(got, o.String())
	}
	want := "testdata/child.hcl:4:15: typed = 50, the parent's 40 | testdata/child.hcl:4:27: described = 50, the parent's 60"
	if strings.Join(got, " | ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " | "), want)
	}
	if r, err := Load("testdata/child.hcl", []byte(`rubric "c" {
  extends = "extends/scaled.hcl"
  version = "1-c"
  weights = { typed = 40 }
}`)); err != nil || len(r.Overrides) != 0 || r.OverridesNote() != "" {
		t.Errorf("a weight set to the parent's number: %v %+v", err, r)
	}
}

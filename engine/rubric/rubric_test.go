package rubric

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Each file in testdata/invalid marks the diagnostics it must produce with a
// comment "# ERROR line:col: text"; the loader must report exactly those, at
// those positions, with messages containing the text.
var marker = regexp.MustCompile(`# ERROR (\d+):(\d+): (.*)$`)

func TestInvalidRubrics(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want []Diagnostic
			for _, line := range strings.Split(string(src), "\n") {
				if m := marker.FindStringSubmatch(line); m != nil {
					l, _ := strconv.Atoi(m[1])
					c, _ := strconv.Atoi(m[2])
					want = append(want, Diagnostic{File: f, Line: l, Col: c, Msg: m[3]})
				}
			}
			if len(want) == 0 {
				t.Fatal("the file marks no error")
			}
			_, err = Load(f, src)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("want a *rubric.Error, got %v", err)
			}
			if len(le.Diagnostics) != len(want) {
				t.Errorf("got %d diagnostics, want %d:\n%v", len(le.Diagnostics), len(want), err)
			}
			for i := range min(len(want), len(le.Diagnostics)) {
				g, w := le.Diagnostics[i], want[i]
				if g.Line != w.Line || g.Col != w.Col || !strings.Contains(g.Msg, w.Msg) {
					t.Errorf("got  %s\nwant %s:%d:%d: …%s…", g, w.File, w.Line, w.Col, w.Msg)
				}
				if !strings.HasPrefix(g.String(), f+":") {
					t.Errorf("diagnostic %q does not start with the file name", g)
				}
			}
		})
	}
}

func TestValidRubricsLoad(t *testing.T) {
	files, _ := filepath.Glob("../../rubrics/*.hcl")
	more, _ := filepath.Glob("../../examples/rubrics/*.hcl")
	files = append(files, more...)
	if len(files) < 2 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.hcl") {
			continue // a rubric's tests, beside it
		}
		if src, _ := os.ReadFile(f); strings.Contains(string(src), "extends =") && Library == nil {
			continue // a built-in parent: package rubrics loads it (TestExamples)
		}
		r, err := LoadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if r.Name == "" || r.Version == "" || !strings.HasPrefix(r.Digest, "sha256:") || len(r.Grades) == 0 {
			t.Errorf("%s: incomplete: %+v", f, r)
		}
	}
}

func TestGradeOf(t *testing.T) {
	r, err := LoadFile("../../rubrics/schema-quality-v1.hcl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ score, grade string }{
		{"100", "A"}, {"90", "A"}, {"8999/100", "B"}, {"75", "B"}, {"74.99", "C"}, {"60", "C"}, {"40", "D"}, {"39.9", "F"}, {"0", "F"},
	} {
		if g := r.GradeOf(mustNum(tt.score)); g != tt.grade {
			t.Errorf("GradeOf(%s) = %s, want %s", tt.score, g, tt.grade)
		}
	}
}

// TestForgedFenceStaysClosed: a description made to contain what its
// fence's end line would have been (found by brute force against a tag
// that was only a hash of the text) still cannot close its fence.
func TestForgedFenceStaysClosed(t *testing.T) {
	b, err := os.ReadFile("testdata/forged-fence.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "[end description ") {
		t.Fatal("the forged text lost its end line")
	}
	out, err := Fence("description", string(b))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	end := lines[len(lines)-1]
	if n := strings.Count(out, end); n != 1 {
		t.Errorf("the end line %q occurs %d times in:\n%s", end, n, out)
	}
}

func TestName(t *testing.T) {
	for src, want := range map[string]string{
		`rubric "tdqs" { version = 1 }`:          "tdqs",
		`rubric "x" { this is not valid HCL`:     "",
		`rubric "a" {}` + "\n" + `rubric "b" {}`: "",
		`# nothing here`:                         "",
	} {
		if got := Name("t.hcl", []byte(src)); got != want {
			t.Errorf("Name(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestReportMax reads a report block's max block: numbers and weights,
// in the order of the block's values, and nothing for a block without
// one.
func TestReportMax(t *testing.T) {
	src := `rubric "t" {
  version = "1"
  weights = { safety = 30, economics = 20.5 }
  tool {
    score = "3"
    report {
      tdqs   = "score"
      scores = "{'a': 1}"
      max {
        scores = 5
      }
    }
  }
  surface {
    score = "mean(tools.map(t, t.score))"
    report "categories" {
      safety    = "30"
      economics = "20"
      count     = "1"
      max {
        economics = weights.economics
        safety    = weights.safety
      }
    }
    report "plain" {
      n = "1"
    }
  }
  grades = { A = 3, F = 0 }
}`
	r, err := Load("t.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	show := func(bs []Bound) string {
		if bs == nil {
			return "nil"
		}
		var parts []string
		for _, b := range bs {
			parts = append(parts, b.Name+"="+b.Max.String())
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	for _, tc := range []struct {
		rep  *Report
		want string
	}{
		{r.Tool.Reports[0], "[scores=5]"},
		{r.Surface.Reports[0], "[safety=30 economics=20.5]"},
		{r.Surface.Reports[1], "nil"},
	} {
		if got := show(tc.rep.Max); got != tc.want {
			t.Errorf("report %q: max %s, want %s", tc.rep.Name, got, tc.want)
		}
	}
	if len(r.Surface.Reports[0].Fields) != 3 {
		t.Errorf("the max block is taken for a value: %d fields", len(r.Surface.Reports[0].Fields))
	}
}

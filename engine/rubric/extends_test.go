package rubric

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtendsChain: a three-deep chain merges as the rules say (weights
// key by key, a block replaced in place, a new one added after the
// parent's, a tool block merged member by member), and the flattened form
// loads to the same digest.
func TestExtendsChain(t *testing.T) {
	r, err := LoadFile("testdata/extends/top.hcl")
	if err != nil {
		t.Fatal(err)
	}
	var checks []string
	for _, c := range r.Checks {
		checks = append(checks, c.Name+"="+c.Points.Exact())
	}
	if got, want := strings.Join(checks, " "), "typed=30 named=50 described=7"; got != want {
		t.Errorf("checks: got %s, want %s", got, want)
	}
	var weights []string
	for _, w := range r.Weights {
		weights = append(weights, w.Name+"="+w.Value.Exact())
	}
	if got, want := strings.Join(weights, " "), "typed=30 purpose_clarity=1"; got != want {
		t.Errorf("weights: got %s, want %s", got, want)
	}
	if r.Name != "top" || r.Version != "1.0.0-top" || len(r.Tool.Metrics) != 1 || r.Tool.Score.Source != "metrics.double / 4" || r.Grades[0].Min.Exact() != "40" {
		t.Errorf("merged wrong: %s %s, %d metrics, score %q, grade A at %s", r.Name, r.Version, len(r.Tool.Metrics), r.Tool.Score.Source, r.Grades[0].Min)
	}
	src, _ := os.ReadFile("testdata/extends/top.hcl")
	flat, err := Flat("testdata/extends/top.hcl", src)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.hcl")
	if err := os.WriteFile(copyPath, flat, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(copyPath)
	if err != nil {
		t.Fatalf("the flat form does not load: %v\n%s", err, flat)
	}
	if c.Digest != r.Digest {
		t.Errorf("the flat form's digest %s differs from the child's %s:\n%s", c.Digest, r.Digest, flat)
	}
	if strings.Contains(string(flat), "extends =") {
		t.Errorf("the flat form still extends:\n%s", flat)
	}
	// The parent, unchanged, has its own digest.
	base, err := LoadFile("testdata/extends/base.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if base.Digest == r.Digest {
		t.Error("the child has its parent's digest")
	}
}

// TestExtendsNewNamesAlike: a child's new members are compared with its
// parent's names alone, never with one another, so two new checks,
// metrics or tests named alike all load; a name near one the parent has
// is still taken for a slip, and the same block twice in the child is
// refused.
func TestExtendsNewNamesAlike(t *testing.T) {
	for _, tt := range []struct {
		name, src, want string
	}{
		{"two new checks, two new metrics, two tests", `rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  check "license_1" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  check "license_2" {
    points = 1
    pass   = "true"
    issue  = "y"
  }
  tool {
    metric "m1" { value = "1" }
    metric "m2" { value = "2" }
  }
  test "case 1" {
    surface = "{\"tools\":[]}"
    expect  = { grade = "F" }
  }
  test "case 2" {
    surface = "{\"tools\":[]}"
    expect  = { grade = "F" }
  }
}`, ""},
		{"a new check near the parent's", `rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  check "typd" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
}`, `testdata/child.hcl:4:9: the parent has no check "typd": did you mean "typed"? (a new check needs a name unlike the parent's)`},
		{"the same new check twice", `rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  check "license" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  check "license" {
    points = 2
    pass   = "true"
    issue  = "x"
  }
}`, `testdata/child.hcl:9:3: check "license" is declared twice in this rubric (first at line 4): a child replaces or adds a block once`},
		{"the parent's check replaced twice", `rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  check "named" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  check "named" {
    points = 2
    pass   = "true"
    issue  = "x"
  }
}`, `testdata/child.hcl:9:3: check "named" is declared twice in this rubric (first at line 4): a child replaces or adds a block once`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Load("testdata/child.hcl", []byte(tt.src))
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, c := range r.Checks {
					names = append(names, c.Name)
				}
				for _, m := range r.Tool.Metrics {
					names = append(names, m.Name)
				}
				for _, tc := range r.Tests {
					names = append(names, tc.Name)
				}
				if got, want := strings.Join(names, ","), "typed,named,license_1,license_2,double,m1,m2,case 1,case 2"; got != want {
					t.Errorf("got %s, want %s", got, want)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestExtendsParentFile: a parent's file("sys.md") reads the sys.md
// beside the parent, not one beside its child in another directory (it
// failed with "read q/sys.md: no such file", or read the child's).
func TestExtendsParentFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string { return writeUnder(t, dir, name, src) }
	write("p/parent.hcl", `rubric "parent" {
  version = "1"
  question "q" {
    kind          = "k"
    per           = "tool"
    input         = "{'name': tool.name}"
    system        = file("sys.md")
    user          = "Grade {{.name}}"
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    score = "1"
  }
  surface {
    score = "1"
  }
  grades = { A = 1, F = 0 }
}
`)
	write("p/sys.md", "the parent's prompt")
	write("q/sys.md", "the child's prompt")
	write("q/child.hcl", "rubric \"child\" {\n  extends = \"../p/parent.hcl\"\n  version = \"1-c\"\n}\n")
	r, err := LoadFile(filepath.Join(dir, "q", "child.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Questions[0].System.Text; got != "the parent's prompt" {
		t.Errorf("the parent's file(\"sys.md\") read %q", got)
	}
}

// TestFlatParentFile: the flattened form of a child whose parent, in
// another directory, reads file("sys.md") names that file from the
// child's directory, so that beside the child it loads to the child's
// digest (copied as written, it read the child's sys.md, or none).
func TestFlatParentFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string { return writeUnder(t, dir, name, src) }
	write("p/parent.hcl", `rubric "parent" {
  version = "1"
  question "q" {
    kind          = "k"
    per           = "tool"
    input         = "{'name': tool.name}"
    system        = file("sys.md")
    user          = file("prompts/user.md")
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    score = "1"
  }
  surface {
    score = "1"
  }
  grades = { A = 1, F = 0 }
}
`)
	write("p/sys.md", "the parent's prompt")
	write("p/prompts/user.md", "Grade {{.name}}")
	write("q/sys.md", "the child's prompt")
	src := "rubric \"child\" {\n  extends = \"../p/parent.hcl\"\n  version = \"1-c\"\n}\n"
	child := write("q/child.hcl", src)
	r, err := LoadFile(child)
	if err != nil {
		t.Fatal(err)
	}
	flat, err := Flat(child, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(flat), `file("../p/sys.md")`) || !strings.Contains(string(flat), `file("../p/prompts/user.md")`) {
		t.Errorf("the flat form does not name the parent's files from the child's directory:\n%s", flat)
	}
	f, err := LoadFile(write("q/flat.hcl", string(flat)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Digest != r.Digest {
		t.Errorf("the flat form's digest %s, the child's %s", f.Digest, r.Digest)
	}
}

// writeUnder writes src to the file name under dir, making its
// directories, and returns its path.
func writeUnder(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExtendsSignalsInMergedOrder: a child's signals are computed in the
// order the flat form writes them, the parent's first (a child's
// override in the place of the parent's), then the child's new ones, so
// that a new signal reads the parent's. They were ordered by where each
// is written in its own file, which put a child's signal (near the top
// of a short file) before every signal of its parent, and gave the
// child a digest other than its flat form's.
func TestExtendsSignalsInMergedOrder(t *testing.T) {
	dir := t.TempDir()
	writeUnder(t, dir, "parent.hcl", `rubric "p" {
  version = "1"
  check "a" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  tool {
    # Padding, so that the parent's signals are written further into
    # their file than the child's into its own.
    signals {
      count = "size(tool.name)"
      twice = "signals.count * 2"
      label = "tool.name"
    }
    report {
      first  = "signals.count"
      second = "signals.twice"
    }
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 1, F = 0 }
}
`)
	src := `rubric "c" {
  extends = "parent.hcl"
  version = "1-c"
  tool {
    signals {
      thrice = "signals.count * 3"
      twice  = "signals.count + signals.count"
    }
    report {
      third = "signals.thrice"
    }
  }
}
`
	child := writeUnder(t, dir, "child.hcl", src)
	r, err := LoadFile(child)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range r.Tool.Signals {
		names = append(names, m.Name)
	}
	if got, want := strings.Join(names, " "), "count twice label thrice"; got != want {
		t.Errorf("signals: got %s, want %s", got, want)
	}
	names = nil
	for _, f := range r.Tool.Reports[0].Fields {
		names = append(names, f.Name)
	}
	if got, want := strings.Join(names, " "), "first second third"; got != want {
		t.Errorf("report values: got %s, want %s", got, want)
	}
	flat, err := Flat(child, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFile(writeUnder(t, dir, "flat.hcl", string(flat)))
	if err != nil {
		t.Fatalf("the flat form does not load: %v\n%s", err, flat)
	}
	if f.Digest != r.Digest {
		t.Errorf("the flat form's digest %s, the child's %s:\n%s", f.Digest, r.Digest, flat)
	}
}

// TestExtendsReplacedStop: a check that replaces a parent's check that
// stops must say stop itself. Left out, the parent's later checks met
// tools they were never meant to see (has_properties read the
// inputSchema of a tool without one) and failed at a line of the
// parent's, far from the change that caused it.
func TestExtendsReplacedStop(t *testing.T) {
	for _, tt := range []struct {
		name, stop, want string
	}{
		{"stop left out", "", `testdata/child.hcl:4:3: check "has_schema" replaces the parent's, which sets stop (a tool that fails it is scored no further, and the checks after it may rely on that): set stop here too, stop = true to keep that, or stop = false to score such a tool on`},
		{"stop kept", "stop = true", ""},
		{"stop dropped on purpose", "stop = false", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := `rubric "c" {
  extends = "extends/stops.hcl"
  version = "1-c"
  check "has_schema" {
    pass  = "has(tool.inputSchema) && tool.inputSchema != null"
    issue = "no schema, or a null one"
    ` + tt.stop + `
  }
}`
			r, err := Load("testdata/child.hcl", []byte(src))
			if tt.want != "" {
				if err == nil || err.Error() != tt.want {
					t.Errorf("got  %v\nwant %s", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := r.Checks[0].Stop, tt.stop == "stop = true"; got != want {
				t.Errorf("the check stops: %t, want %t", got, want)
			}
		})
	}
}

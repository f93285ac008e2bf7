package plot

import (
	"bytes"
	"testing"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/num"
)

func val(s string) *calibrate.Val {
	v := calibrate.NumVal(num.MustParse(s))
	return &v
}

// TestOf puts each tool with a published score at (published, our
// median), and leaves out a tool the registry gave no score.
func TestOf(t *testing.T) {
	rec := &calibrate.Record{Runs: 3, Rubric: calibrate.RubricInfo{Name: "rated", Version: "1"}}
	rec.Statistics.Measure = "rating"
	rec.Statistics.Tools = []calibrate.ToolRow{
		{Name: "a", Published: val("4.3"), Median: *val("3.8")},
		{Name: "b", Median: *val("2")},
		{Name: "c", Published: val("3.1"), Median: *val("3.4")},
	}
	c := Of(rec)
	want := []Point{{"a", 4.3, 3.8}, {"c", 3.1, 3.4}}
	if len(c.Points) != len(want) {
		t.Fatalf("points %+v, want %+v", c.Points, want)
	}
	for i, w := range want {
		if c.Points[i] != w {
			t.Errorf("point %d is %+v, want %+v (x published, y ours)", i, c.Points[i], w)
		}
	}
	if c.XLabel != "published rating" || c.YLabel != "ours, rating (median of 3 runs)" || !c.Names {
		t.Errorf("chart %+v", c)
	}
}

// TestDiagonal checks the line drawn is y = x.
func TestDiagonal(t *testing.T) {
	d := diagonal()
	for _, x := range []float64{0, 1.5, 4.3} {
		if y := d.F(x); y != x {
			t.Errorf("the diagonal at %v is %v", x, y)
		}
	}
	// The SVG holds it as a dashed path.
	svg, err := Render(Chart{Points: []Point{{"a", 1, 2}}}, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("stroke-dasharray")) {
		t.Error("no dashed line in the SVG")
	}
}

// TestCoincidentLabels stacks the names of tools at the same point into
// one label, so that they do not overlap.
func TestCoincidentLabels(t *testing.T) {
	l := labels([]Point{{"search", 4.4, 4.2}, {"create", 4.3, 3.8}, {"get", 4.4, 4.2}})
	if len(l.XYs) != 2 || len(l.Labels) != 2 {
		t.Fatalf("labels %+v", l)
	}
	if l.Labels[0] != "get\nsearch" || l.Labels[1] != "create" {
		t.Errorf("labels %q, want get and search stacked at one point", l.Labels)
	}
}

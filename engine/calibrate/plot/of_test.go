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

// TestLabelsDoNotOverlap moves the label of a tool at the same point as
// another's, or close enough for their names to overlap, to a free spot;
// a label far from the others stays right of its point.
func TestLabelsDoNotOverlap(t *testing.T) {
	// The example's plot spans about 2.9 to 5.3 over some 300 points.
	unit := 2.4 / 300
	points := []Point{
		{"search_bookmarks", 4.6, 5}, {"get_bookmark", 4.4, 5}, {"same_point", 4.4, 5},
		{"tag_bookmarks", 3.1, 4.5},
	}
	got := place(points, unit)
	if got[3] != (spot{1, 0}) {
		t.Errorf("a label with room right of its point moved: %v", got[3])
	}
	if got[1] == got[2] {
		t.Errorf("two tools at one point share a spot: %v", got)
	}
	// get's label right of it would run over search's point.
	if got[1] == (spot{1, 0}) || got[2] == (spot{1, 0}) {
		t.Errorf("a label runs over the next point: %v", got)
	}
	if got := place([]Point{{"a", 1, 1}, {"b", 4, 4}}, unit); got[0] != (spot{1, 0}) || got[1] != (spot{1, 0}) {
		t.Errorf("labels far apart moved: %v", got)
	}
}

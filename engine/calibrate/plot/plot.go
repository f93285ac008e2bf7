// Package plot draws a calibration's scatter plot: for each tool, the
// published score (x) against ours (y), with the line y = x on which a
// judge that agreed with the registry would put every point.
//
// It is its own package so that the statistics do not pull in a plotting
// library; it draws with gonum.org/v1/plot, whose fonts are compiled in,
// so it needs no network and no system fonts.
package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rubricmcp/rubric/engine/calibrate"
)

// Point is one tool: its published score and ours.
type Point struct {
	Name string
	X, Y float64
}

// Chart is what to draw.
type Chart struct {
	Title          string
	XLabel, YLabel string
	Points         []Point
	// Names puts each tool's name beside its point; for a few tools only,
	// or the names overlap.
	Names bool
}

// Size is the side of the square plot.
const Size = 5 * vg.Inch

// Render draws the chart in format "png" or "svg".
func Render(c Chart, format string) ([]byte, error) {
	p, err := build(c)
	if err != nil {
		return nil, err
	}
	wt, err := p.WriterTo(Size, Size, format)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func build(c Chart) (*gplot.Plot, error) {
	if len(c.Points) == 0 {
		return nil, fmt.Errorf("no points to plot")
	}
	p := gplot.New()
	p.Title.Text = c.Title
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Add(plotter.NewGrid())

	// Both axes span the same range, so the line y = x is the diagonal.
	lo, hi := math.Inf(1), math.Inf(-1)
	xys := make(plotter.XYs, len(c.Points))
	for i, pt := range c.Points {
		xys[i].X, xys[i].Y = pt.X, pt.Y
		lo = min(lo, pt.X, pt.Y)
		hi = max(hi, pt.X, pt.Y)
	}
	pad := max((hi-lo)*0.08, 0.25)
	lo, hi = lo-pad, hi+pad
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi

	p.Add(diagonal())

	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(3.5), Color: color.RGBA{R: 31, G: 94, B: 168, A: 255}}
	p.Add(sc)

	if c.Names {
		lb, err := plotter.NewLabels(labels(c.Points))
		if err != nil {
			return nil, err
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i].Font.Size = vg.Points(7)
			lb.TextStyle[i].XAlign = draw.XLeft
		}
		lb.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(-3)}
		p.Add(lb)
	}
	return p, nil
}

// diagonal is the dashed line y = x.
func diagonal() *plotter.Function {
	diag := plotter.NewFunction(func(x float64) float64 { return x })
	diag.Color = color.Gray{Y: 120}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	return diag
}

// labels puts one label at each distinct point: the names of the tools
// that sit there, one a line in name order, so that tools with the same
// published score and median do not write over each other.
func labels(points []Point) plotter.XYLabels {
	var out plotter.XYLabels
	at := map[plotter.XY]int{}
	var names [][]string
	for _, pt := range points {
		xy := plotter.XY{X: pt.X, Y: pt.Y}
		i, ok := at[xy]
		if !ok {
			i = len(out.XYs)
			at[xy] = i
			out.XYs = append(out.XYs, xy)
			names = append(names, nil)
		}
		names[i] = append(names[i], pt.Name)
	}
	for _, n := range names {
		slices.Sort(n)
		out.Labels = append(out.Labels, strings.Join(n, "\n"))
	}
	return out
}

// Of is the chart of a calibration: each tool with a published score, at
// (published, our median).
func Of(rec *calibrate.Record) Chart {
	st := rec.Statistics
	c := Chart{
		Title:  fmt.Sprintf("%s %s: published against ours (dashed: y = x)", rec.Rubric.Name, rec.Rubric.Version),
		XLabel: "published " + st.Measure,
		YLabel: fmt.Sprintf("ours, %s (median of %d runs)", st.Measure, rec.Runs),
	}
	for _, t := range st.Tools {
		if t.Published == nil {
			continue
		}
		c.Points = append(c.Points, Point{Name: t.Name, X: t.Published.Num.Float64(), Y: t.Median.Num.Float64()})
	}
	c.Names = len(c.Points) <= 12
	return c
}

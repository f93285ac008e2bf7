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
	"cmp"
	"fmt"
	"image/color"
	"maps"
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
	// Legend is written in the top left corner, a line each: the
	// agreement statistics of the points.
	Legend []string
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
	sc.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: glyphRadius, Color: color.RGBA{R: 31, G: 94, B: 168, A: 255}}
	p.Add(sc)
	if len(c.Legend) > 0 {
		// The legend goes in the corner away from the diagonal on the
		// side with fewer points: top left when ours are mostly lower.
		above := 0
		for _, pt := range c.Points {
			if pt.Y > pt.X {
				above++
			}
		}
		upper := 2*above < len(c.Points)
		p.Legend.Top, p.Legend.Left = upper, upper
		p.Legend.TextStyle.Font.Size = labelSize
		p.Legend.Add("tools", sc)
		for _, line := range c.Legend {
			p.Legend.Add(line)
		}
	}

	if c.Names {
		// Each label goes where place puts it: one plotter per spot,
		// since a plotter offsets and aligns all its labels alike.
		unit := (hi - lo) / (Size.Points() - plotMargin)
		spots := place(c.Points, unit)
		bySpot := map[spot]*plotter.XYLabels{}
		for i, pt := range c.Points {
			l := bySpot[spots[i]]
			if l == nil {
				l = &plotter.XYLabels{}
				bySpot[spots[i]] = l
			}
			l.XYs = append(l.XYs, plotter.XY{X: pt.X, Y: pt.Y})
			l.Labels = append(l.Labels, pt.Name)
		}
		keys := slices.SortedFunc(maps.Keys(bySpot), func(a, b spot) int {
			return cmp.Or(cmp.Compare(a.level, b.level), cmp.Compare(a.side, b.side))
		})
		for _, k := range keys {
			lb, err := plotter.NewLabels(*bySpot[k])
			if err != nil {
				return nil, err
			}
			for i := range lb.TextStyle {
				lb.TextStyle[i].Font.Size = labelSize
				lb.TextStyle[i].XAlign = draw.XLeft
				lb.TextStyle[i].YAlign = draw.YCenter
				if k.side < 0 {
					lb.TextStyle[i].XAlign = draw.XRight
				}
			}
			lb.Offset = vg.Point{X: vg.Length(k.side) * labelGap, Y: -vg.Length(k.level) * lineHeight}
			p.Add(lb)
		}
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

// The labels' geometry, in points: the font size, an estimate of a
// character's width and of a line's height, the gap between a point and
// its label, a point's radius, and how much of the plot's side the axes take.
const (
	labelSize   = vg.Length(7)
	charWidth   = 4.0
	lineHeight  = vg.Length(9)
	glyphRadius = vg.Length(3.5)
	labelGap    = vg.Length(5)
	plotMargin  = 60.0
)

// spot is where a label goes: right (1) or left (-1) of its point, and
// how many lines lower.
type spot struct{ side, level int }

// place finds each label a spot: the first of right, left, right a line
// lower, left a line lower, ... where its box overlaps no point and no
// label placed before it (points taken left to right), so that tools at
// or near the same point do not write over each other. unit is the data
// per point of the plot, the same on both axes.
func place(points []Point, unit float64) []spot {
	type box struct{ x0, x1, y0, y1 float64 }
	overlaps := func(a, b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }
	var taken []box
	r := float64(glyphRadius) * unit
	for _, pt := range points {
		taken = append(taken, box{pt.X - r, pt.X + r, pt.Y - r, pt.Y + r})
	}
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(points[a].X, points[b].X), strings.Compare(points[a].Name, points[b].Name))
	})
	spots := make([]spot, len(points))
	lh := float64(lineHeight) * unit
	for _, i := range order {
		pt := points[i]
		w := float64(len(pt.Name)) * charWidth * unit
		gap := float64(labelGap) * unit
		for n := 0; ; n++ {
			sp := spot{side: 1, level: n / 2}
			if n%2 == 1 {
				sp.side = -1
			}
			y := pt.Y - float64(sp.level)*lh
			b := box{pt.X + gap, pt.X + gap + w, y - lh/2, y + lh/2}
			if sp.side < 0 {
				b.x0, b.x1 = pt.X-gap-w, pt.X-gap
			}
			if !slices.ContainsFunc(taken, func(o box) bool { return overlaps(b, o) }) || n > 2*len(points) {
				spots[i] = sp
				taken = append(taken, b)
				break
			}
		}
	}
	return spots
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
	for _, a := range st.Agreement {
		if a.Name != st.Measure {
			continue
		}
		c.Legend = append(c.Legend,
			"Pearson "+calibrate.WithCI(a.Pearson, a.PearsonCI),
			"Spearman "+calibrate.WithCI(a.Spearman, a.SpearmanCI),
			"weighted kappa "+calibrate.Opt(a.Kappa)+", alpha "+calibrate.Opt(a.Alpha),
			fmt.Sprintf("95%% CIs: %d bootstrap resamples, seed %d", st.Bootstrap.Resamples, st.Bootstrap.Seed))
	}
	return c
}

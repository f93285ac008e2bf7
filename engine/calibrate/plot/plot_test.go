package plot

import (
	"bytes"
	"testing"
)

func TestRender(t *testing.T) {
	c := Chart{
		Title: "t", XLabel: "published", YLabel: "ours", Names: true,
		Points: []Point{{"a", 4.3, 3.8}, {"b", 3.1, 3.4}, {"c", 4.9, 4.6}},
	}
	png, err := Render(c, "png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("not a PNG: % x", png[:8])
	}
	svg, err := Render(c, "svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "published", "ours"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if _, err := Render(Chart{}, "png"); err == nil {
		t.Error("an empty chart was drawn")
	}
}

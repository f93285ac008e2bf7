package html

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"regexp"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/calibrate/plot"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// calibrationView is what the calibration page's template reads.
type calibrationView struct {
	Style     template.CSS
	Rec       *calibrate.Record
	Capture   string // the capture's file name
	Judge     string
	Heuristic bool
	Plot      template.HTML
	Sections  []section
}

// svgProlog is what comes before the <svg> element of a plot: an XML
// declaration and a doctype, which have no place inside HTML.
var svgProlog = regexp.MustCompile(`(?s)^.*?(<svg[\s>])`)

// WriteCalibrationFile writes the page of WriteCalibration to the file
// at path, replacing it whole or not at all.
func WriteCalibrationFile(path string, rec *calibrate.Record) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return WriteCalibration(w, rec) }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteCalibration writes a calibration record as one self-contained HTML
// page: who was calibrated against what, the scatter plot of published
// against measured scores (inline SVG), and the statistics as tables.
func WriteCalibration(w io.Writer, rec *calibrate.Record) error {
	if rec == nil {
		return fmt.Errorf("write HTML: no calibration record to write")
	}
	v := calibrationView{Style: template.CSS(style), Rec: rec, Capture: filepath.Base(rec.Capture.Path)}
	if j := rec.Judge; j != nil {
		v.Judge = j.Plugin + " " + j.Version
		if noun, names := j.Answered(); noun != "" {
			v.Judge += ", " + noun + " " + names
		}
		v.Heuristic = j.Heuristic
	}
	if chart := plot.Of(rec); len(chart.Points) > 0 {
		svg, err := plot.Render(chart, "svg")
		if err != nil {
			return fmt.Errorf("write HTML: plot: %w", err)
		}
		v.Plot = template.HTML(svgProlog.ReplaceAll(svg, []byte("$1")))
	}
	stats, err := json.Marshal(rec.Statistics)
	if err != nil {
		return fmt.Errorf("write HTML: %w", err)
	}
	if s, ok := sectionOf(report.Field{Name: "statistics", Value: json.RawMessage(stats)}, "/statistics", nil, bounds{}); ok {
		v.Sections = append(v.Sections, s)
	}
	var buf bytes.Buffer
	if err := page().ExecuteTemplate(&buf, "calibration", v); err != nil {
		return fmt.Errorf("write HTML: %w", err)
	}
	_, err = io.WriteString(w, shown(buf.String()))
	return err
}

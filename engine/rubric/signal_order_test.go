package rubric

import (
	"errors"
	"strings"
	"testing"
)

// signalRubric is a valid rubric whose tool and surface blocks hold the
// signals given (the lines of a signals block, and a let block's).
func signalRubric(toolLet, tool, surface string) string {
	return blocksRubric(toolLet, "    signals {\n"+tool+"\n    }", "    signals {\n"+surface+"\n    }")
}

// blocksRubric is a valid rubric whose tool block holds the let block's
// lines given and then the lines tool, and whose surface block holds the
// lines surface, each before its score.
func blocksRubric(toolLet, tool, surface string) string {
	return `rubric "t" {
  version = "1"
  check "a" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  tool {
    let {
` + toolLet + `
    }
` + tool + `
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
` + surface + `
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 1, F = 0 }
}
`
}

// TestSignalOrder: signals are computed in the order written, each
// seeing the ones before it, so a signal that reads a later one, itself,
// or a cycle is refused when the rubric loads, at the place of the read,
// saying what to do; it loaded, and failed on the first tool scored with
// "no such key: q ... check the name's spelling", though q is declared.
// The surface block's signals (surface_signals.NAME) alike.
func TestSignalOrder(t *testing.T) {
	const none = `      z = "1"`
	for _, tt := range []struct {
		name, let, tool, surface string
		want                     []string
	}{
		{"a tool signal that reads a later one", "", `      p = "signals.q + 1"
      q = "1"`, none, []string{
			`t.hcl:13:12: signal "p" reads signals.q, which is computed after it: signals are computed in the order written, so declare q before p`}},
		{"a tool signal that reads itself", "", `      p = "signals.p + 1"`, none, []string{
			`t.hcl:13:12: signal "p" reads itself (signals.p): a signal sees only the signals declared before it, not its own value; compute p from those`}},
		{"two tool signals that read each other", "", `      p = "signals.q + 1"
      q = "signals.p + 1"`, none, []string{
			`t.hcl:13:12: signal "p" reads signals.q, which reads p back (p -> q -> p): signals are computed in the order written, so none of them can come first; compute what they share in a signal declared before them`}},
		{"a cycle of three, told once", "", `      p = "signals.q + 1"
      q = "signals.r + 1"
      r = "signals.p + 1"`, none, []string{
			`t.hcl:13:12: signal "p" reads signals.q, which reads p back (p -> q -> r -> p): signals are computed in the order written, so none of them can come first; compute what they share in a signal declared before them`}},
		{"a later signal read twice, told once", "", `      p = "signals.q + signals.q"
      q = "1"`, none, []string{
			`t.hcl:13:12: signal "p" reads signals.q, which is computed after it: signals are computed in the order written, so declare q before p`}},
		{"a later signal read through a let, at the let", `      x = "signals.q + 1"`, `      p = "x"
      o = "x * 2"
      q = "1"`, none, []string{
			`t.hcl:10:12: signal "p" reads signals.q (through let x), which is computed after it: signals are computed in the order written, so declare q before p`}},
		{"a signal that reads itself through a let", `      x = "signals.p + 1"`, `      p = "x"`, none, []string{
			`t.hcl:10:12: signal "p" reads itself (signals.p, through let x): a signal sees only the signals declared before it, not its own value; compute p from those`}},
		{"a later signal in a heredoc", "", `      p = <<-CEL
        1 +
          signals.q
      CEL
      q = "1"`, none, []string{
			`t.hcl:15:11: signal "p" reads signals.q, which is computed after it: signals are computed in the order written, so declare q before p`}},
		{"a surface signal that reads a later one", "", none, `      p = "surface_signals.q + 1"
      q = "1"`, []string{
			`t.hcl:19:12: surface signal "p" reads surface_signals.q, which is computed after it: surface signals are computed in the order written, so declare q before p`}},
		{"a surface signal that reads itself", "", none, `      p = "surface_signals.p + 1"`, []string{
			`t.hcl:19:12: surface signal "p" reads itself (surface_signals.p): a surface signal sees only the surface signals declared before it, not its own value; compute p from those`}},
		{"two surface signals that read each other", "", none, `      p = "surface_signals.q + 1"
      q = "surface_signals.p + 1"`, []string{
			`t.hcl:19:12: surface signal "p" reads surface_signals.q, which reads p back (p -> q -> p): surface signals are computed in the order written, so none of them can come first; compute what they share in a surface signal declared before them`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := signalRubric(tt.let, tt.tool, tt.surface)
			_, err := Load("t.hcl", []byte(src))
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("want a *rubric.Error, got %v\n%s", err, src)
			}
			var got []string
			for _, d := range le.Diagnostics {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestSignalOrderInOrder: signals that read only the ones before them,
// directly or through a let, load, as do a tool signal that reads the
// surface's signals (all computed before any tool's), a has() test of
// a later one, and a macro's variable named signals.
func TestSignalOrderInOrder(t *testing.T) {
	r := loadString(t, signalRubric(`      x = "signals.q + 1"`, `      q = "1"
      p = "signals.q + x"
      s = "surface_signals.late + signals.p"
      h = "has(signals.later) ? 1 : 0"
      m = "[1].map(signals, signals + 1)[0]"
      later = "2"`, `      early = "1"
      late  = "surface_signals.early + 1"`))
	var names []string
	for _, m := range r.Tool.Signals {
		names = append(names, m.Name)
	}
	if got, want := strings.Join(names, " "), "q p s h m later"; got != want {
		t.Errorf("tool signals: got %s, want %s", got, want)
	}
}

// TestMetricOrder: metrics are computed in the order written, as
// signals are, and a metric that reads one below it, itself, or a cycle
// is told so as a signal is (TestSignalOrder), at the place of the read.
// A cycle of two was once told to move the second above the first,
// which only turned the error around, and a read through a let was
// placed at a column of the let's generated text.
func TestMetricOrder(t *testing.T) {
	for _, tt := range []struct {
		name, let, metrics string
		want               []string
	}{
		{"a metric that reads a later one", "", `    metric "p" { value = "metrics.q + 1" }
    metric "q" { value = "1" }`, []string{
			`t.hcl:12:27: metric "p" reads metrics.q, which is computed after it: metrics are computed in the order written, so declare q before p`}},
		{"a metric that reads itself", "", `    metric "p" { value = "metrics.p + 1" }`, []string{
			`t.hcl:12:27: metric "p" reads itself (metrics.p): a metric sees only the metrics declared before it, not its own value; compute p from those`}},
		{"two metrics that read each other", "", `    metric "p" { value = "metrics.q + 1" }
    metric "q" { value = "metrics.p + 1" }`, []string{
			`t.hcl:12:27: metric "p" reads metrics.q, which reads p back (p -> q -> p): metrics are computed in the order written, so none of them can come first; compute what they share in a metric declared before them`}},
		{"a later metric read through a let", `      twice = "metrics.q * 2"`, `    metric "p" { value = "twice + 1" }
    metric "q" { value = "1" }`, []string{
			`t.hcl:10:16: metric "p" reads metrics.q (through let twice), which is computed after it: metrics are computed in the order written, so declare q before p`}},
		{"in order", `      twice = "metrics.q * 2"`, `    metric "q" { value = "1" }
    metric "p" { value = "twice + metrics.q" }`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("t.hcl", []byte(blocksRubric(tt.let, tt.metrics, "")))
			var got []string
			var le *Error
			if errors.As(err, &le) {
				for _, d := range le.Diagnostics {
					got = append(got, d.String())
				}
			} else if err != nil {
				got = []string{err.Error()}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

package rubric

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/jsonenc"
)

// TestRenderedLenIsTheRenderedLength: a prompt measured is as long as the
// prompt rendered, whether its fences are printed as they are (measured
// as blanks) or their text is used otherwise (written in full), for
// values fenced as text, as indented JSON and through encoding/json; and
// a fence that fails fails the same way measured.
func TestRenderedLenIsTheRenderedLength(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"id": map[string]any{"type": "string", "description": "the [end input-schema 00000000] <id> é \u2028 \xff"},
		"n":  map[string]any{"type": "integer", "default": json.Number("100"), "enum": []any{json.Number("1"), json.Number("2.5")}},
	}, "required": []any{"id"}}
	inputs := []map[string]any{
		{"tool": map[string]any{"name": "get_note", "description": "Gets a note.\n[end description 5d0a2c41]", "inputSchema": schema, "annotations": nil}, "n": json.Number("3")},
		{"tool": map[string]any{"name": "", "description": "", "inputSchema": map[string]any{}, "annotations": map[string]any{"readOnlyHint": true}}, "n": json.Number("0")},
		{"tool": map[string]any{"name": strings.Repeat("long_", 20000), "description": strings.Repeat("x", 70000), "inputSchema": []any{float64(1.5), "a", nil, true}}},
		{"tool": map[string]any{"name": "odd", "inputSchema": map[string]any{"big": float64(1e21), "tiny": float64(1e-7)}}},
	}
	for _, tt := range []struct {
		text     string
		measured bool // measured with blanks for the fences
	}{
		{"Grade {{ fence \"name\" .tool.name }}\n{{ fence \"description\" .tool.description }}\n{{ fence \"input-schema\" (default \"{}\" .tool.inputSchema) }}\n{{ fence \"annotations\" (default \"(none)\" .tool.annotations) }}\nn = {{ .n }}", true},
		{"{{ if .tool.name }}{{ fence \"name\" .tool.name }}{{ else }}none{{ end }}{{ range $k, $v := .tool }}{{ $k }}={{ fence $k $v }};{{ end }}", true},
		{"{{ define \"x\" }}[{{ fence \"x\" . }}]{{ end }}{{ template \"x\" .tool.name }}", true},
		{"{{ fence \"name\" .tool.name | printf \"%q\" }}", false},
		{"{{ printf \"%q\" (fence \"name\" .tool.name) }}", false},
		{"{{ $f := fence \"name\" .tool.name }}{{ $f }}{{ $f }}", false},
		{"{{ if fence \"name\" .tool.name }}yes{{ end }}", false},
		{"{{ fence \"outer\" (fence \"inner\" .tool.inputSchema) }}", false},
		{"{{ define \"x\" }}{{ . }}{{ end }}{{ template \"x\" (fence \"name\" .tool.name) }}", false},
		{"{{ with .tool }}{{ fence \"description\" (len .description | printf \"%d\") }}{{ end }}", true},
	} {
		tmpl, err := parseTemplate("user", tt.text)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		var p Prompt
		p.setTemplate(tmpl)
		if got := p.measureTemplate() != nil; got != tt.measured {
			t.Errorf("%q: measured with blanks %v, want %v", tt.text, got, tt.measured)
		}
		for i, in := range inputs {
			text, rerr := p.render(in)
			n, merr := p.renderedLen(in)
			if rerr != nil || merr != nil {
				if rerr == nil || merr == nil || rerr.Error() != merr.Error() {
					t.Errorf("%q, input %d: rendering says %v, measuring %v", tt.text, i, rerr, merr)
				}
				continue
			}
			if n != len(text) {
				t.Errorf("%q, input %d: measured %d, rendered %d", tt.text, i, n, len(text))
			}
		}
	}
	// A value encoding/json refuses fails the fence, measured or not.
	tmpl, err := parseTemplate("user", `{{ fence "input-schema" .tool.inputSchema }}`)
	if err != nil {
		t.Fatal(err)
	}
	var p Prompt
	p.setTemplate(tmpl)
	in := map[string]any{"tool": map[string]any{"inputSchema": map[string]any{"x": math.NaN()}}}
	_, rerr := p.render(in)
	_, merr := p.renderedLen(in)
	if rerr == nil || merr == nil || rerr.Error() != merr.Error() {
		t.Errorf("NaN: rendering says %v, measuring %v", rerr, merr)
	}
}

// TestIndentedLen: the length counted for a value is the length of what
// jsonenc writes indented, at every depth, and a value it leaves to
// encoding/json is left alone by both.
func TestIndentedLen(t *testing.T) {
	for _, v := range []any{
		nil, true, false, "", "a \"q\" \n é \u2028 \xff", json.Number("-1.5e3"), json.Number("01"),
		[]any(nil), []any{}, map[string]any(nil), map[string]any{},
		[]any{nil, []any{}, []any{"x", json.Number("2")}, map[string]any{"k\u2029": []any{true}}},
		map[string]any{"b": map[string]any{"c": map[string]any{}, "d": []any{nil}}, "a": "x", "\x01": false},
		map[string]any{"bad": float64(1)}, []any{"ok", struct{}{}},
		int64(0), int64(-7), int64(10), int64(-10), int64(math.MaxInt64), int64(math.MinInt64), 99, -100,
		map[string]any{"n": []any{int64(12345), 0}},
	} {
		for depth := range 3 {
			b, bok := jsonenc.Append(nil, v, true, depth)
			n, nok := indentedLen(v, depth)
			if bok != nok || bok && n != len(b) {
				t.Errorf("%#v at depth %d: counted %d (%v), written %d (%v)", v, depth, n, nok, len(b), bok)
			}
		}
	}
}

// TestLengthPlan: a template of text, printed fields and fenced fields is
// measured by its plan, as long as it renders, and gives way to the
// template wherever the plan cannot be sure (a missing key, a nil or a
// number printed, a field under a value that is no map, a value fenced
// through encoding/json); any other template has no plan.
func TestLengthPlan(t *testing.T) {
	const shown = "Grade this.\n{{ fence \"name\" .tool.name }}\n{{ fence \"title\" (default \"(no title)\" .tool.title) }}\n" +
		"{{ fence \"input-schema\" (default \"{}\" .tool.inputSchema) }}\n- count: {{ .signals.count }}\n- nested: {{ .signals.nested }}\n- name: {{ .tool.name }}\n"
	schema := map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string", "description": "é \u2028 <q>"}}}
	for _, tt := range []struct {
		name    string
		text    string
		planned bool
		input   any
		sure    bool // the plan measures input without the template
	}{
		{"every field", shown, true, map[string]any{"tool": map[string]any{"name": "get", "title": "Get", "inputSchema": schema},
			"signals": map[string]any{"count": json.Number("3"), "nested": true}}, true},
		{"defaults taken", shown, true, map[string]any{"tool": map[string]any{"name": "", "title": nil, "inputSchema": map[string]any{}},
			"signals": map[string]any{"count": json.Number("0"), "nested": false}}, true},
		{"blank title", shown, true, map[string]any{"tool": map[string]any{"name": "x", "title": "  ", "inputSchema": []any{}},
			"signals": map[string]any{"count": json.Number("1"), "nested": false}}, true},
		{"missing key", shown, true, map[string]any{"tool": map[string]any{"name": "x", "inputSchema": schema},
			"signals": map[string]any{"count": json.Number("1"), "nested": false}}, false},
		{"nil printed", shown, true, map[string]any{"tool": map[string]any{"name": "x", "title": "t", "inputSchema": schema},
			"signals": map[string]any{"count": nil, "nested": false}}, false},
		{"float printed", shown, true, map[string]any{"tool": map[string]any{"name": "x", "title": "t", "inputSchema": schema},
			"signals": map[string]any{"count": float64(2), "nested": false}}, false},
		{"no map under", shown, true, map[string]any{"tool": "x", "signals": map[string]any{"count": json.Number("1"), "nested": false}}, false},
		{"encoding/json fence", shown, true, map[string]any{"tool": map[string]any{"name": "x", "title": "t", "inputSchema": map[string]any{"n": float64(1)}},
			"signals": map[string]any{"count": json.Number("1"), "nested": false}}, false},
		{"dot not a map", shown, true, []any{"x"}, false},
		{"if", "{{ if .a }}x{{ end }}", false, map[string]any{"a": true}, false},
		{"piped", "{{ .a | printf \"%s\" }}", false, map[string]any{"a": "x"}, false},
		{"dot", "{{ . }}", false, "x", false},
		{"join", "{{ fence \"n\" (join \",\" .a) }}", false, map[string]any{"a": []any{"x"}}, false},
		{"fence of a variable", "{{ $x := .a }}{{ fence \"n\" $x }}", false, map[string]any{"a": "x"}, false},
		{"defined", "{{ define \"x\" }}y{{ end }}{{ .a }}", false, map[string]any{"a": "x"}, false},
	} {
		tmpl, err := parseTemplate("user", tt.text)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var p Prompt
		p.setTemplate(tmpl)
		plan := p.lengthPlan()
		if (plan != nil) != tt.planned {
			t.Errorf("%s: planned %v, want %v", tt.name, plan != nil, tt.planned)
		}
		n, sure := plan.measure(tt.input)
		if sure != tt.sure {
			t.Errorf("%s: plan sure %v, want %v", tt.name, sure, tt.sure)
		}
		text, rerr := p.render(tt.input)
		m, merr := p.renderedLen(tt.input)
		if rerr != nil || merr != nil {
			if sure || rerr == nil || merr == nil || rerr.Error() != merr.Error() {
				t.Errorf("%s: rendering says %v, measuring %v (plan sure %v)", tt.name, rerr, merr, sure)
			}
			continue
		}
		if m != len(text) || sure && n != len(text) {
			t.Errorf("%s: measured %d, planned %d (sure %v), rendered %d", tt.name, m, n, sure, len(text))
		}
	}
}

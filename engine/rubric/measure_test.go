package rubric

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"text/template"

	"github.com/rubricmcp/rubric/internal/cputime"
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
	// As TDQS's coherence question lists the tools and the pairs to judge.
	const listed = "Tools:\n{{ range .tools }}{{ fence \"tool\" (printf \"%s [cost %v]: %s\" .name .cost (default \"(no description)\" .description)) }}\n{{ else }}none\n{{ end }}end\n"
	const shadows = "Pairs:\n{{ fence \"shadow-candidates\" (default \"(none)\" (join \"\\n\" .s)) }}\n"
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
		{"join", "{{ fence \"n\" (join \",\" .a) }}", true, map[string]any{"a": []any{"x", json.Number("2"), true}}, true},
		{"join blank", shadows, true, map[string]any{"s": []any{" ", "\t"}}, true},
		{"join empty", shadows, true, map[string]any{"s": []any{}}, true},
		{"join one", shadows, true, map[string]any{"s": []any{"a (cost 3) may be shadowed by b (cost 0)"}}, true},
		{"join nil", shadows, true, map[string]any{"s": nil}, false},
		{"join no list", shadows, true, map[string]any{"s": "x"}, false},
		{"join missing", shadows, true, map[string]any{}, false},
		{"range", listed, true, map[string]any{"tools": []any{
			map[string]any{"name": "a", "cost": json.Number("3"), "description": "Gets \"a\"."},
			map[string]any{"name": "b", "cost": json.Number("0"), "description": " "},
			map[string]any{"name": "c", "cost": true, "description": nil}}}, true},
		{"range else", listed, true, map[string]any{"tools": []any{}}, true},
		{"range nil list", listed, true, map[string]any{"tools": []any(nil)}, true},
		{"range printf odd values", listed, true, map[string]any{"tools": []any{
			map[string]any{"name": nil, "cost": map[string]any{"b": json.Number("1"), "a": []any{"x"}}, "description": json.Number("1")}}}, true},
		{"range missing key", listed, true, map[string]any{"tools": []any{map[string]any{"name": "a", "cost": json.Number("3")}}}, false},
		{"range item no map", listed, true, map[string]any{"tools": []any{"a"}}, false},
		{"range no list", listed, true, map[string]any{"tools": map[string]any{"a": "b"}}, false},
		{"range nil", listed, true, map[string]any{"tools": nil}, false},
		{"printed call", "{{ printf \"%v/%s\" .a .a }} {{ default \"none\" .b }} {{ join \"-\" .c }}", true,
			map[string]any{"a": json.Number("7"), "b": "", "c": []any{"x", "y"}}, true},
		{"printed call of a list", "{{ default \"none\" .b }}", true, map[string]any{"b": []any{"x"}}, false},
		{"fence in an argument", "{{ fence \"a\" (default \"x\" (fence \"b\" .a)) }}", false, map[string]any{"a": "x"}, false},
		{"range of a variable", "{{ range $i, $t := .a }}{{ $i }}{{ end }}", false, map[string]any{"a": []any{"x"}}, false},
		{"range with break", "{{ range .a }}{{ break }}{{ end }}", false, map[string]any{"a": []any{"x"}}, false},
		{"printf of a number", "{{ printf \"%d\" 3 }}", false, map[string]any{}, false},
		{"fence of a variable", "{{ $x := .a }}{{ fence \"n\" $x }}", false, map[string]any{"a": "x"}, false},
		{"defined", "{{ define \"x\" }}y{{ end }}{{ .a }}", false, map[string]any{"a": "x"}, false},
	} {
		tmpl, err := parseTemplate("user", tt.text)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		planned, sure := measuresAsRendered(t, tt.name, tmpl, tt.input)
		if planned != tt.planned {
			t.Errorf("%s: planned %v, want %v", tt.name, planned, tt.planned)
		}
		if sure != tt.sure {
			t.Errorf("%s: plan sure %v, want %v", tt.name, sure, tt.sure)
		}
	}
}

// FuzzLengthPlan: for any template a rubric may hold and any input a
// question may have (JSON as the engine hands it to templates, numbers
// as json.Number), the measured prompt is as long as the rendered one,
// and the plan, where it is sure, agrees: a plan that measured one byte
// wrong would move every prompt_bytes a report records.
func FuzzLengthPlan(f *testing.F) {
	for _, s := range [][2]string{
		{"{{ fence \"name\" .tool.name }} {{ fence \"t\" (default \"(no title)\" .tool.title) }} {{ .n }}", `{"tool":{"name":"get","title":null},"n":3}`},
		{"{{ range .tools }}{{ fence \"tool\" (printf \"%s [cost %v]: %s\" .name .cost (default \"-\" .description)) }}\n{{ else }}none{{ end }}", `{"tools":[{"name":"a","cost":1,"description":" "},{"name":"b","cost":true,"description":null}]}`},
		{"{{ fence \"s\" (default \"(none)\" (join \"\\n\" .s)) }}", `{"s":["a","b"]}`},
		{"{{ printf \"%v/%q\" .a .b }}", `{"a":{"x":[1,"y"]},"b":"\u00e9"}`},
		{"{{ join \",\" .s }}", `{"s":"x"}`},
		{"{{ range .t }}{{ .n }}{{ end }}", `{"t":{"n":1}}`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, input string) {
		if widthOrPrecision.MatchString(text) {
			return
		}
		tmpl, err := parseTemplate("user", text)
		if err != nil {
			return
		}
		dec := json.NewDecoder(strings.NewReader(input))
		dec.UseNumber()
		var in any
		if dec.Decode(&in) != nil {
			return
		}
		measuresAsRendered(t, text, tmpl, in)
	})
}

// widthOrPrecision is a printf verb given a width or a precision, which
// could ask for gigabytes of padding.
var widthOrPrecision = regexp.MustCompile(`%[-+# 0]*[1-9*.]`)

// measuresAsRendered fails t unless the prompt of tmpl measured with
// input is as long as rendered (or fails as rendering does), and its
// plan, where it is sure, says the same; it reports whether tmpl has a
// plan and whether the plan was sure of input.
func measuresAsRendered(t *testing.T, name string, tmpl *template.Template, input any) (planned, sure bool) {
	t.Helper()
	var p Prompt
	p.setTemplate(tmpl)
	plan := p.lengthPlan()
	n, sure := plan.measure(input)
	text, rerr := p.render(input)
	m, merr := p.renderedLen(input)
	if rerr != nil || merr != nil {
		if sure || rerr == nil || merr == nil || rerr.Error() != merr.Error() {
			t.Errorf("%s: rendering says %v, measuring %v (plan sure %v)", name, rerr, merr, sure)
		}
		return plan != nil, sure
	}
	if m != len(text) || sure && n != len(text) {
		t.Errorf("%s: measured %d, planned %d (sure %v), rendered %d", name, m, n, sure, len(text))
	}
	return plan != nil, sure
}

// TestTDQSPromptsArePlanned: both of TDQS's questions have their user
// prompts measured by a plan, sure of the tools and servers below, as
// long as they render.
func TestTDQSPromptsArePlanned(t *testing.T) {
	r, err := LoadFile("../../rubrics/tdqs-v1.3.hcl")
	if err != nil {
		t.Fatal(err)
	}
	noTitle := tdqsToolInput()
	noTitle["tool"].(map[string]any)["annotations"] = nil
	inputs := map[string][]any{
		"tool": {tdqsToolInput(), noTitle},
		"coherence": {tdqsCoherenceInput(3), tdqsCoherenceInput(0),
			map[string]any{"server": "", "toolCount": json.Number("1"), "shadowCandidates": []any{" "}, "tools": []any{
				map[string]any{"name": "a", "invocationCost": json.Number("1"), "requiredFieldCount": json.Number("0"),
					"schemaDepth": json.Number("0"), "unionChoiceCount": json.Number("0"), "description": ""}}}},
	}
	for _, q := range r.Questions {
		if q.User.lengthPlan() == nil {
			t.Errorf("%s: the user prompt has no plan", q.Name)
		}
		if len(inputs[q.Name]) == 0 {
			t.Errorf("%s: no input to measure", q.Name)
		}
		for i, in := range inputs[q.Name] {
			if _, sure := q.User.lengthPlan().measure(in); !sure {
				t.Errorf("%s, input %d: the plan is not sure", q.Name, i)
			}
			system, user, err := q.Render(in)
			if err != nil {
				t.Fatalf("%s, input %d: %v", q.Name, i, err)
			}
			ns, nu, err := q.RenderedLen(in)
			if err != nil || ns != len(system) || nu != len(user) {
				t.Errorf("%s, input %d: measured %d and %d (%v), rendered %d and %d", q.Name, i, ns, nu, err, len(system), len(user))
			}
		}
	}
}

// tdqsCoherenceInput is a TDQS coherence question's input as the asker
// hands it to the templates, for a server of n tools.
func tdqsCoherenceInput(n int) map[string]any {
	tools := []any{}
	var shadows []any
	for i := range n {
		name := fmt.Sprintf("tool_%d", i)
		tools = append(tools, map[string]any{"name": name, "invocationCost": json.Number(fmt.Sprint(i * 3)),
			"requiredFieldCount": json.Number(fmt.Sprint(i)), "schemaDepth": json.Number("1"), "unionChoiceCount": json.Number("0"),
			"description": "Does the " + name + " thing, \"quoted\"."})
		if i > 0 {
			shadows = append(shadows, name+" (cost 6) may be shadowed by tool_0 (cost 0)")
		}
	}
	return map[string]any{"server": "bench", "toolCount": json.Number(fmt.Sprint(n)), "tools": tools, "shadowCandidates": shadows}
}

// tdqsToolInput is a TDQS tool question's input as the asker hands it to
// the templates: a definition with a schema of ten parameters, and its
// signals.
func tdqsToolInput() map[string]any {
	props := map[string]any{}
	for _, name := range []string{"id", "name", "query", "limit", "cursor", "sort", "order", "filter", "fields", "expand"} {
		props[name] = map[string]any{"type": "string", "description": "The " + name + " to use, as the API takes it.", "enum": []any{"a", "b"}}
	}
	return map[string]any{
		"tool": map[string]any{
			"name": "list_items", "title": nil, "description": "List the items of a project, newest first. Use get_item to read one.",
			"inputSchema":  map[string]any{"type": "object", "properties": props, "required": []any{"id"}, "additionalProperties": false},
			"outputSchema": nil, "annotations": map[string]any{"readOnlyHint": true, "title": "List items"},
		},
		"signals": map[string]any{
			"paramCount": json.Number("10"), "requiredParamCount": json.Number("1"), "paramsWithDescriptions": json.Number("10"),
			"paramsWithEnums": json.Number("10"), "schemaDescriptionCoverage": json.Number("100"), "hasNestedObjects": false,
			"hasAnnotations": true, "annotationValues": map[string]any{"readOnlyHint": true}, "titleIsMeaningful": false, "inputHash": "00",
		},
	}
}

// BenchmarkRenderedLen measures TDQS's prompts as the asker does for a
// judge that reads the structured input alone: a tool's, 100 times, and
// the server's of 100 tools once.
//
//	go test ./engine/rubric -run '^$' -bench RenderedLen -benchmem
func BenchmarkRenderedLen(b *testing.B) {
	r, err := LoadFile("../../rubrics/tdqs-v1.3.hcl")
	if err != nil {
		b.Fatal(err)
	}
	tool, coherence := r.Questions[0], r.Questions[1]
	toolInput, surface := tdqsToolInput(), tdqsCoherenceInput(100)
	b.ReportAllocs()
	cpu, _ := cputime.Process()
	for b.Loop() {
		// A server's 100 tools, and the server.
		for range 100 {
			if _, _, err := tool.RenderedLen(toolInput); err != nil {
				b.Fatal(err)
			}
		}
		if _, _, err := coherence.RenderedLen(surface); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time, less swayed than the wall clock by what else the machine
	// runs.
	end, _ := cputime.Process()
	b.ReportMetric(float64((end-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

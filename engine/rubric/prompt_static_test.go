package rubric

import (
	"bytes"
	"testing"
)

// TestStaticPrompt: a template of text alone renders as its text without
// being executed, and every template renders what text/template writes.
func TestStaticPrompt(t *testing.T) {
	input := map[string]any{"tool": map[string]any{"name": "get_x"}}
	for _, tt := range []struct {
		text   string
		static bool
	}{
		{"", true},
		{"Grade this tool.\n\nReply with JSON only.\n", true},
		{"before {{/* a comment */}} after", true},
		{"a {{- \"\" -}} b", false},
		{"name: {{ .tool.name }}", false},
		{"{{ define \"x\" }}inner{{ end }}outer", true},
		{"{{ define \"x\" }}inner{{ end }}{{ template \"x\" }}", false},
	} {
		tmpl, err := parseTemplate("p", tt.text)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		var p Prompt
		p.Text = tt.text
		p.setTemplate(tmpl)
		if p.static.ok != tt.static {
			t.Errorf("%q: static = %v, want %v", tt.text, p.static.ok, tt.static)
		}
		var want bytes.Buffer
		if err := tmpl.Execute(&want, input); err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		got, err := p.render(input)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		if got != want.String() {
			t.Errorf("%q: render = %q, want %q", tt.text, got, want.String())
		}
	}
}

package rubrics_test

import "testing"

// TestSchemaQualityMessagesAreTrue: the messages of has_properties and
// declares_required say what the schema tells a model. A schema of no
// properties that allows none does say the tool takes no arguments; one
// that allows others leaves it open. Without a required list every
// parameter reads as optional, and a tool of no parameters has none to
// list. The scores are the published rubric's either way.
func TestSchemaQualityMessagesAreTrue(t *testing.T) {
	cases := []struct {
		name, schema string
		want         map[string]string // check -> message; a check not named passes
	}{
		{"no properties, others allowed", `{"type":"object"}`, map[string]string{
			"has_properties":    "inputSchema declares no properties, so a model cannot tell whether the tool takes no arguments or takes ones it does not describe",
			"declares_required": "inputSchema lists no required parameter, and declares none to list",
		}},
		{"no properties, none allowed", `{"type":"object","properties":{},"additionalProperties":false}`, map[string]string{
			"has_properties":    "inputSchema declares no properties and allows none, so the tool takes no arguments; these points go only to declared properties",
			"declares_required": "inputSchema lists no required parameter, and declares none to list",
		}},
		{"optional parameters", `{"type":"object","properties":{"q":{"type":"string","description":"What to find."}}}`, map[string]string{
			"declares_required": "inputSchema lists no required parameter, so a model reads every parameter as optional",
		}},
		{"an empty required list", `{"type":"object","required":[],"properties":{"q":{"type":"string","description":"What to find."}}}`, map[string]string{
			"declares_required": "inputSchema lists no required parameter, so a model reads every parameter as optional",
		}},
		{"a required parameter", `{"type":"object","required":["q"],"properties":{"q":{"type":"string","description":"What to find."}}}`, nil},
	}
	r := builtin(t, "schema-quality")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"tools":[{"name":"t","description":"A tool.","inputSchema":` + c.schema + `}]}`
			rep := scoreJSON(t, r, "messages.tools.json", src)
			got := map[string]string{}
			for _, is := range rep.Tools[0].Issues {
				if is.Check == "has_properties" || is.Check == "declares_required" {
					got[is.Check] = is.Message
				}
			}
			for check, want := range c.want {
				if got[check] != want {
					t.Errorf("%s: %q, want %q", check, got[check], want)
				}
			}
			for check, msg := range got {
				if _, ok := c.want[check]; !ok {
					t.Errorf("%s failed (%q), want it met", check, msg)
				}
			}
		})
	}
}

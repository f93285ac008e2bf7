package rubrics_test

import "testing"

// TestSchemaQualityNullableParams: an optional value written as a union
// with null (pydantic, zod) is described by the description on its other
// branch; a union whose non-null branch has none is still undescribed.
func TestSchemaQualityNullableParams(t *testing.T) {
	cases := []struct {
		name, params string
		credit       string
		failed       []string
	}{
		{"described branch", `"limit":{"anyOf":[{"type":"integer","description":"How many."},{"type":"null"}]}`, "1", nil},
		{"description beside the union", `"limit":{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"How many."}`, "1", nil},
		{"through a $ref", `"limit":{"anyOf":[{"$ref":"#/$defs/Limit"},{"type":"null"}]}`, "1", nil},
		{"undescribed branch", `"limit":{"anyOf":[{"type":"integer"},{"type":"null"}]}`, "0", []string{"limit"}},
		{"one of two", `"a":{"oneOf":[{"type":"null"},{"type":"string","description":"A."}]},"b":{"anyOf":[{"type":"string"},{"type":"null"}]}`, "1/2", []string{"b"}},
	}
	r := builtin(t, "schema-quality")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `{"tools":[{"name":"t","inputSchema":{"type":"object","required":["x"],"$defs":{"Limit":{"type":"integer","description":"How many."}},"properties":{` + c.params + `}}}]}`
			rep := scoreJSON(t, r, "nullable.tools.json", src)
			ch, ok := rep.Tools[0].Check("described_params")
			if !ok {
				t.Fatal("no described_params check")
			}
			if ch.Credit != c.credit || len(ch.Failed) != len(c.failed) || (len(c.failed) > 0 && ch.Failed[0] != c.failed[0]) {
				t.Errorf("credit %s failed %v, want %s %v", ch.Credit, ch.Failed, c.credit, c.failed)
			}
		})
	}
}

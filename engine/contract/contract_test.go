package contract

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

func parse(t testing.TB, tools string) *surface.Surface {
	t.Helper()
	s, err := surface.Parse("test", []byte(`{"tools":[`+tools+`]}`))
	if err != nil {
		t.Fatalf("parse %s: %v", tools, err)
	}
	return s
}

// want is a change as a case expects it: "class kind path", and when
// set, its values as canonical JSON ("-" for absent).
type want struct {
	change        string
	before, after string
}

const notes = `{"name":"search_notes","description":"Search notes by words.","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100},"mode":{"type":"string","enum":["fast","full","archive"]}},"required":["q"]},"outputSchema":{"type":"object","properties":{"hits":{"type":"array"},"total":{"type":"integer"}},"required":["hits","total"]},"annotations":{"readOnlyHint":true,"idempotentHint":true,"openWorldHint":false}}`

// edit returns notes with each old string replaced by its new one.
func edit(pairs ...string) string {
	return strings.NewReplacer(pairs...).Replace(notes)
}

func TestCompare(t *testing.T) {
	deleteNote := `{"name":"delete_note","description":"Delete a note for good.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}`
	createNote := `{"name":"create_note","description":"Create a note with a title and a body.","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}},"required":["title"]}}`
	cases := []struct {
		name       string
		base, head string
		want       []want
	}{
		{"unchanged", notes, notes, nil},
		{"listing order does not matter", notes + "," + deleteNote, deleteNote + "," + notes, nil},
		// Breaking.
		{"tool removed", notes + "," + deleteNote, notes, []want{{"breaking tool-removed /name", `"delete_note"`, "-"}}},
		{"tool renamed, same definition", notes, edit(`"search_notes"`, `"find_notes"`), []want{{"breaking tool-renamed /name", `"search_notes"`, `"find_notes"`}}},
		{"tool renamed and changed", notes, edit(`"search_notes"`, `"notes_lookup"`, `"archive"`, `"old"`), []want{
			{"breaking enum-value-removed /inputSchema/properties/mode/enum/2", `"archive"`, "-"},
			{"breaking tool-renamed /name", `"search_notes"`, `"notes_lookup"`},
			{"compatible enum-value-added /inputSchema/properties/mode/enum/2", "-", `"old"`},
		}},
		{"a close name with another definition is no rename", deleteNote, createNote, []want{
			{"breaking tool-removed /name", `"delete_note"`, "-"},
			{"compatible tool-added /name", "-", `"create_note"`},
		}},
		{"parameter removed", notes, edit(`"q":{"type":"string"},`, ``, `"required":["q"]`, `"required":[]`), []want{
			{"breaking parameter-removed /inputSchema/properties/q", `{"type":"string"}`, "-"},
		}},
		{"parameter newly required", notes, edit(`"required":["q"]`, `"required":["q","limit"]`), []want{
			{"breaking parameter-required /inputSchema/required/1", "-", `"limit"`},
		}},
		{"required parameter added", notes, edit(`"q":{"type":"string"},`, `"q":{"type":"string"},"tag":{"type":"string"},`, `"required":["q"]`, `"required":["q","tag"]`), []want{
			{"breaking required-parameter-added /inputSchema/properties/tag", "-", `{"type":"string"}`},
		}},
		{"type changed", notes, edit(`"q":{"type":"string"}`, `"q":{"type":"array"}`), []want{
			{"breaking type-changed /inputSchema/properties/q/type", `"string"`, `"array"`},
		}},
		{"type narrowed", edit(`"limit":{"type":"integer"`, `"limit":{"type":"number"`), notes, []want{
			{"breaking type-narrowed /inputSchema/properties/limit/type", `"number"`, `"integer"`},
		}},
		{"type narrowed from a list", edit(`"q":{"type":"string"}`, `"q":{"type":["string","null"]}`), notes, []want{
			{"breaking type-narrowed /inputSchema/properties/q/type", `["string","null"]`, `"string"`},
		}},
		{"type given where any was taken", edit(`"q":{"type":"string"}`, `"q":{}`), notes, []want{
			{"breaking type-narrowed /inputSchema/properties/q/type", "-", `"string"`},
		}},
		{"enum value removed", notes, edit(`,"archive"`, ``), []want{
			{"breaking enum-value-removed /inputSchema/properties/mode/enum/2", `"archive"`, "-"},
		}},
		{"enum put on a free parameter", notes, edit(`"q":{"type":"string"}`, `"q":{"type":"string","enum":["a"]}`), []want{
			{"breaking enum-added /inputSchema/properties/q/enum", "-", `["a"]`},
		}},
		{"bound tightened", notes, edit(`"maximum":100`, `"maximum":50`), []want{
			{"breaking bound-tightened /inputSchema/properties/limit/maximum", `100`, `50`},
		}},
		{"pattern added", notes, edit(`"q":{"type":"string"}`, `"q":{"type":"string","pattern":"^[a-z]+$"}`), []want{
			{"breaking pattern-added /inputSchema/properties/q/pattern", "-", `"^[a-z]+$"`},
		}},
		{"additional properties closed", notes, edit(`"required":["q"]`, `"required":["q"],"additionalProperties":false`), []want{
			{"breaking schema-closed /inputSchema/additionalProperties", "-", `false`},
		}},
		{"output field removed", notes, edit(`"total":{"type":"integer"}`, `"count":{"type":"integer"}`, `"required":["hits","total"]`, `"required":["hits","count"]`), []want{
			{"breaking output-field-removed /outputSchema/properties/total", `{"type":"integer"}`, "-"},
			{"compatible output-field-added /outputSchema/properties/count", "-", `{"type":"integer"}`},
		}},
		{"output field no longer promised", notes, edit(`"required":["hits","total"]`, `"required":["hits"]`), []want{
			{"breaking output-field-optional /outputSchema/required/1", `"total"`, "-"},
		}},
		{"output type widened", notes, edit(`"total":{"type":"integer"}`, `"total":{"type":"number"}`), []want{
			{"breaking type-widened /outputSchema/properties/total/type", `"integer"`, `"number"`},
		}},
		{"output schema removed", notes, edit(`,"outputSchema":{"type":"object","properties":{"hits":{"type":"array"},"total":{"type":"integer"}},"required":["hits","total"]}`, ``), []want{
			{"breaking output-schema-removed /outputSchema", `{"properties":{"hits":{"type":"array"},"total":{"type":"integer"}},"required":["hits","total"],"type":"object"}`, "-"},
		}},
		{"an alternative removed", edit(`"q":{"type":"string"}`, `"q":{"anyOf":[{"type":"string"},{"type":"integer"}]}`), edit(`"q":{"type":"string"}`, `"q":{"anyOf":[{"type":"string"}]}`), []want{
			{"breaking alternative-removed /inputSchema/properties/q/anyOf/1", `{"type":"integer"}`, "-"},
		}},
		{"an allOf part added", edit(`"q":{"type":"string"}`, `"q":{"allOf":[{"type":"string"}]}`), edit(`"q":{"type":"string"}`, `"q":{"allOf":[{"type":"string"},{"minLength":3}]}`), []want{
			{"breaking all-of-part-added /inputSchema/properties/q/allOf/1", "-", `{"minLength":3}`},
		}},
		{"a const changed", edit(`"q":{"type":"string"}`, `"q":{"const":"a"}`), edit(`"q":{"type":"string"}`, `"q":{"const":"b"}`), []want{
			{"breaking const-changed /inputSchema/properties/q/const", `"a"`, `"b"`},
		}},
		{"an output enum value added", edit(`"total":{"type":"integer"}`, `"total":{"enum":[1,2]}`), edit(`"total":{"type":"integer"}`, `"total":{"enum":[1,2,3]}`), []want{
			{"breaking enum-value-added /outputSchema/properties/total/enum/2", "-", `3`},
		}},
		{"a parameter that accepted nothing", edit(`"q":{"type":"string"}`, `"q":false`), notes, []want{
			{"compatible schema-opened /inputSchema/properties/q", `false`, `{"type":"string"}`},
		}},
		// Risky.
		{"read-only removed", notes, edit(`"readOnlyHint":true`, `"readOnlyHint":false`), []want{
			{"risky read-only-removed /annotations/readOnlyHint", `true`, `false`},
		}},
		{"read-only dropped", notes, edit(`"readOnlyHint":true,`, ``), []want{
			{"risky read-only-removed /annotations/readOnlyHint", `true`, "-"},
		}},
		{"destructive added", notes, edit(`"openWorldHint":false`, `"openWorldHint":false,"destructiveHint":true`), []want{
			{"risky destructive-added /annotations/destructiveHint", "-", `true`},
		}},
		{"idempotent removed, open world no longer closed", notes, edit(`"idempotentHint":true,"openWorldHint":false`, `"idempotentHint":false`), []want{
			{"risky idempotent-removed /annotations/idempotentHint", `true`, `false`},
			{"risky open-world-added /annotations/openWorldHint", `false`, "-"},
		}},
		{"default changed", notes, edit(`"minimum":1,`, `"minimum":1,"default":10,`), []want{
			{"risky default-changed /inputSchema/properties/limit/default", "-", `10`},
		}},
		{"reference changed", edit(`"q":{"type":"string"}`, `"q":{"$ref":"#/$defs/a"}`), edit(`"q":{"type":"string"}`, `"q":{"$ref":"#/$defs/b"}`), []want{
			{"risky keyword-changed /inputSchema/properties/q/$ref", `"#/$defs/a"`, `"#/$defs/b"`},
		}},
		// Information.
		{"side-effect wording", notes, edit(`Search notes by words.`, `Search notes by words, and delete the ones found.`), []want{
			{"information side-effect-wording-changed /description", `"Search notes by words."`, `"Search notes by words, and delete the ones found."`},
		}},
		{"a definition removed", edit(`"required":["q"]`, `"required":["q"],"$defs":{"a":{"type":"string"}}`), notes, []want{
			{"risky definition-removed /inputSchema/$defs/a", `{"type":"string"}`, "-"},
		}},
		{"a keyword not judged", notes, edit(`"q":{"type":"string"}`, `"q":{"type":"string","format":"uri"}`), []want{
			{"risky keyword-changed /inputSchema/properties/q/format", "-", `"uri"`},
		}},
		// Compatible.
		{"optional parameter added", notes, edit(`"q":{"type":"string"},`, `"q":{"type":"string"},"tag":{"type":"string"},`), []want{
			{"compatible parameter-added /inputSchema/properties/tag", "-", `{"type":"string"}`},
		}},
		{"tool added", notes, notes + "," + deleteNote, []want{{"compatible tool-added /name", "-", `"delete_note"`}}},
		{"parameter made optional", notes, edit(`"required":["q"]`, `"required":[]`), []want{
			{"compatible parameter-optional /inputSchema/required/0", `"q"`, "-"},
		}},
		{"enum value added, bound loosened, type widened", notes, edit(`"full"`, `"full","deep"`, `"maximum":100`, `"maximum":500`, `"limit":{"type":"integer"`, `"limit":{"type":"number"`), []want{
			{"compatible bound-loosened /inputSchema/properties/limit/maximum", `100`, `500`},
			{"compatible type-widened /inputSchema/properties/limit/type", `"integer"`, `"number"`},
			{"compatible enum-value-added /inputSchema/properties/mode/enum/2", "-", `"deep"`},
		}},
		{"wording", notes, edit(`Search notes by words.`, `Search the notes by their words.`, `"q":{"type":"string"}`, `"q":{"type":"string","description":"Words to find."}`), []want{
			{"compatible description-changed /description", "", ""},
			{"compatible description-changed /inputSchema/properties/q/description", "-", `"Words to find."`},
		}},
		{"output narrowed", notes, edit(`"total":{"type":"integer"}`, `"total":{"type":"integer","minimum":0}`), []want{
			{"compatible bound-tightened /outputSchema/properties/total/minimum", "-", `0`},
		}},
		{"read-only promised", edit(`"readOnlyHint":true,`, ``), notes, []want{
			{"compatible annotation-changed /annotations/readOnlyHint", "-", `true`},
		}},
		{"output schema added", edit(`,"outputSchema":{"type":"object","properties":{"hits":{"type":"array"},"total":{"type":"integer"}},"required":["hits","total"]}`, ``), notes, []want{
			{"compatible output-schema-added /outputSchema", "", ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base, head := parse(t, c.base), parse(t, c.head)
			d := Compare(base, head)
			checkPointers(t, base, head, d)
			var got []string
			for _, ch := range d.Changes {
				got = append(got, fmt.Sprintf("%s %s %s", ch.Class, ch.Kind, ch.Path))
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d changes, want %d:\n%s", len(got), len(c.want), describe(d))
			}
			for i, w := range c.want {
				ch := d.Changes[i]
				if got[i] != w.change {
					t.Errorf("change %d is %q, want %q:\n%s", i, got[i], w.change, describe(d))
				}
				if w.before != "" && raw(ch.Before) != w.before {
					t.Errorf("change %d: before %s, want %s", i, raw(ch.Before), w.before)
				}
				if w.after != "" && raw(ch.After) != w.after {
					t.Errorf("change %d: after %s, want %s", i, raw(ch.After), w.after)
				}
				if ch.Message == "" {
					t.Errorf("change %d has no message", i)
				}
			}
		})
	}
}

func TestCounts(t *testing.T) {
	d := Compare(parse(t, notes), parse(t, edit(`,"archive"`, ``, `"readOnlyHint":true,`, ``, `"q":{"type":"string"},`, `"q":{"type":"string"},"tag":{"type":"string"},`, `Search notes`, `Search or delete notes`)))
	got := [4]int{d.Breaking, d.Risky, d.Information, d.Compatible}
	if got != [4]int{1, 1, 1, 1} {
		t.Errorf("counts (breaking, risky, information, compatible) = %v, want one each:\n%s", got, describe(d))
	}
}

func TestSimilarity(t *testing.T) {
	tool := func(def string) surface.Tool { return parse(t, def).Tools[0] }
	cases := []struct {
		name       string
		base, head string
		rename     bool
	}{
		{"same definition, other name", `{"name":"get_note","description":"Read one note by its id.","inputSchema":{"properties":{"id":{}}}}`, `{"name":"notes_read","description":"Read one note by its id.","inputSchema":{"properties":{"id":{}}}}`, true},
		{"a parameter more", `{"name":"search_notes","description":"Search notes.","inputSchema":{"properties":{"q":{}}}}`, `{"name":"find_notes","description":"Search notes.","inputSchema":{"properties":{"q":{},"limit":{}}}}`, true},
		{"close names, other tools", `{"name":"get_note","description":"Read one note.","inputSchema":{"properties":{"id":{}}}}`, `{"name":"get_notes","description":"List the notes of a folder.","inputSchema":{"properties":{"folder":{}}}}`, false},
		{"nothing to go on", `{"name":"ping"}`, `{"name":"status"}`, false},
		{"same parameter, no words", `{"name":"get_user","inputSchema":{"properties":{"id":{}}}}`, `{"name":"delete_order","inputSchema":{"properties":{"id":{}}}}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, def := Similarity(tool(c.base), tool(c.head))
			t.Logf("%.3f %.3f", s, def)
			if got := s >= RenameThreshold && def >= DefinitionFloor; got != c.rename {
				t.Errorf("similarity %.3f, definitions %.3f: rename %v, want %v", s, def, got, c.rename)
			}
		})
	}
}

// TestRenameBestFirst: two removed tools and two added ones pair by
// best similarity, not by listing order.
func TestRenameBestFirst(t *testing.T) {
	a := `{"name":"note_get","description":"Read one note by its id.","inputSchema":{"properties":{"id":{}}}}`
	b := `{"name":"note_list","description":"List the notes in a folder.","inputSchema":{"properties":{"folder":{}}}}`
	a2 := `{"name":"read_note","description":"Read one note by its id.","inputSchema":{"properties":{"id":{}}}}`
	b2 := `{"name":"list_notes","description":"List the notes in a folder.","inputSchema":{"properties":{"folder":{}}}}`
	d := Compare(parse(t, a+","+b), parse(t, b2+","+a2))
	got := map[string]string{}
	for _, c := range d.Changes {
		if c.Kind == "tool-renamed" {
			got[c.Tool] = c.HeadTool
		}
	}
	if got["note_get"] != "read_note" || got["note_list"] != "list_notes" || len(d.Changes) != 2 {
		t.Errorf("renames %v, want note_get→read_note and note_list→list_notes only:\n%s", got, describe(d))
	}
}

// checkPointers checks that every change's values are what its path
// finds in the base's and the head's definitions.
func checkPointers(t testing.TB, base, head *surface.Surface, d *Diff) {
	t.Helper()
	for _, c := range d.Changes {
		bt, bok := base.Tool(c.Tool)
		hname := c.Tool
		if c.HeadTool != "" {
			hname = c.HeadTool
		}
		ht, hok := head.Tool(hname)
		if !bok && !hok {
			t.Errorf("%s %s: tool %q is on neither side", c.Kind, c.Path, c.Tool)
			continue
		}
		if strings.Trim(c.Kind, "abcdefghijklmnopqrstuvwxyz-") != "" {
			t.Errorf("kind %q is not from the fixed list (it has more than lower-case letters and dashes)", c.Kind)
		}
		if c.Before == nil && c.After == nil {
			t.Errorf("%s %s: no value on either side", c.Kind, c.Path)
		}
		for _, side := range []struct {
			name string
			val  []byte
			tool surface.Tool
			ok   bool
		}{{"base", c.Before, bt, bok}, {"head", c.After, ht, hok}} {
			if side.val == nil {
				continue
			}
			if !side.ok {
				t.Errorf("%s %s: a %s value for a tool the %s lacks", c.Kind, c.Path, side.name, side.name)
				continue
			}
			v, ok := jsonpointer.Resolve(side.tool.Def, c.Path)
			if !ok {
				t.Errorf("%s %s: the path is not in the %s's definition", c.Kind, c.Path, side.name)
				continue
			}
			if got := surface.Canonical(v); !bytes.Equal(got, side.val) {
				t.Errorf("%s %s: the %s has %s there, the change says %s", c.Kind, c.Path, side.name, got, side.val)
			}
		}
	}
}

func raw(b []byte) string {
	if b == nil {
		return "-"
	}
	return string(b)
}

func describe(d *Diff) string {
	var b strings.Builder
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "  %s %s %s %s %s → %s: %s\n", c.Class, c.Kind, c.Tool, c.Path, raw(c.Before), raw(c.After), c.Message)
	}
	return b.String()
}

// BenchmarkCompare compares two 20,000-tool surfaces that differ in one
// tool of every hundred, the size the gate's benchmarks reach.
func BenchmarkCompare(b *testing.B) {
	var base, head strings.Builder
	for i := range 20000 {
		if i > 0 {
			base.WriteString(",")
			head.WriteString(",")
		}
		name := fmt.Sprintf("tool_%05d", i)
		t := strings.Replace(notes, `"search_notes"`, strconv.Quote(name), 1)
		base.WriteString(t)
		if i%100 == 0 {
			t = strings.Replace(t, `,"archive"`, ``, 1)
		}
		head.WriteString(t)
	}
	bs, hs := parse(b, base.String()), parse(b, head.String())
	for b.Loop() {
		if d := Compare(bs, hs); d.Breaking != 200 {
			b.Fatalf("%d breaking changes, want 200", d.Breaking)
		}
	}
}

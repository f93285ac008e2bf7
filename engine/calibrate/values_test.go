package calibrate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

func TestFlatten(t *testing.T) {
	for _, tc := range []struct {
		name, doc, prefix string
		depth             int
		want              string
	}{
		{"numbers at any depth, in order", `{"score": 3.5, "scores": {"b": 2, "a": 4}}`, "", 0, "score=3.5 scores.b=2 scores.a=4"},
		{"a label directly under the top", `{"tier": "B", "scores": {"a": 1}}`, "", 0, "tier=B scores.a=1"},
		{"prose and nested text are left out", `{"summary": "a few words here", "scores": {"a": {"score": 3, "justification": "short"}}}`, "", 0, "scores.a.score=3"},
		{"arrays, booleans and nulls are left out", `{"xs": [1, 2], "ok": true, "n": null, "v": 1}`, "", 0, "v=1"},
		{"a report member: prefix and depth 1", `{"purpose_clarity": 4}`, "scores", 1, "scores.purpose_clarity=4"},
		{"a scalar member", `4.2`, "score", 1, "score=4.2"},
		{"a label member", `"A"`, "tier", 1, "tier=A"},
		{"too long to be a label", `"` + strings.Repeat("x", 33) + `"`, "tier", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := flatten([]byte(tc.doc), tc.prefix, tc.depth)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, n := range got {
				parts = append(parts, n.Name+"="+n.Value.String())
			}
			if s := strings.Join(parts, " "); s != tc.want {
				t.Errorf("got %q, want %q", s, tc.want)
			}
		})
	}
}

func TestPearsonUndefined(t *testing.T) {
	one := []num.Num{num.Int(1)}
	if _, ok := Pearson(one, one); ok {
		t.Error("one point has a correlation")
	}
	flat := []num.Num{num.Int(2), num.Int(2), num.Int(2)}
	if _, ok := Pearson(flat, []num.Num{num.Int(1), num.Int(2), num.Int(3)}); ok {
		t.Error("a constant side has a correlation")
	}
	if r, ok := Pearson([]num.Num{num.Int(1), num.Int(2), num.Int(3)}, []num.Num{num.Int(2), num.Int(4), num.Int(6)}); !ok || r < 0.999999 {
		t.Errorf("a line: %v %v", r, ok)
	}
}

func TestValJSON(t *testing.T) {
	for _, tc := range []struct {
		v    Val
		want string
	}{
		{NumVal(num.MustParse("3.25")), `3.25`},
		{NumVal(num.Frac(1, 3)), `"1/3"`},
		{Val{Text: "A", IsText: true}, `"A"`},
		{NumVal(num.MustParse("-0.3")), `-0.3`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("marshal %v: %s %v, want %s", tc.v, b, err, tc.want)
		}
		var back Val
		if err := json.Unmarshal(b, &back); err != nil || back.String() != tc.v.String() || back.IsText != tc.v.IsText {
			t.Errorf("%s read back as %+v (%v)", b, back, err)
		}
	}
	b, _ := json.Marshal(Mean{num.Frac(2, 7)})
	if string(b) != `{"value":0.2857,"exact":"2/7"}` {
		t.Errorf("mean: %s", b)
	}
}

func TestLabel(t *testing.T) {
	for in, want := range map[string]string{
		"scores.purpose_clarity": "Purpose clarity",
		"score":                  "Score",
		"coherenceScore":         "CoherenceScore",
	} {
		if got := label(in); got != want {
			t.Errorf("label(%q) = %q, want %q", in, got, want)
		}
	}
}

package gate

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

func nums(ss ...string) []num.Num {
	out := make([]num.Num, len(ss))
	for i, s := range ss {
		out[i] = num.MustParse(s)
	}
	return out
}

// TestDecide is the rule's table: the first pair decides unless it
// drops; a drop is confirmed by more pairs and the medians decide.
func TestDecide(t *testing.T) {
	for _, tt := range []struct {
		name       string
		round      int
		confirm    int
		base, head []string
		want       Decision
		more       int
		reason     string
	}{
		{"equal on the first pair", 1, 2, []string{"3.2"}, []string{"3.2"}, Pass, 0, "holds"},
		{"better on the first pair", 1, 2, []string{"3.2"}, []string{"3.4"}, Pass, 0, "holds"},
		{"a drop asks for two more pairs", 1, 2, []string{"3.2"}, []string{"3.1"}, "", 2, ""},
		{"a drop asks for the pairs still missing", 1, 2, []string{"3.2", "3.2"}, []string{"3.1", "3.2"}, "", 1, ""},
		{"a confirmed drop blocks", 1, 2, []string{"3.2", "3.2", "3.3"}, []string{"3.1", "3.1", "3.3"}, Block, 0, "median over 3 pairs is 3.1, below the base's 3.2"},
		{"an unconfirmed drop passes", 1, 2, []string{"3.2", "3.2", "3.2"}, []string{"3.1", "3.2", "3.3"}, Pass, 0, "not below"},
		{"the medians, not the means", 1, 2, []string{"3.2", "3.2", "3.2"}, []string{"3.1", "3.2", "4.0"}, Pass, 0, ""},
		{"a base that varies", 1, 2, []string{"3.2", "3.3", "3.4"}, []string{"3.1", "3.2", "3.5"}, Block, 0, ""},
		{"no confirmation: the first drop blocks", 1, 0, []string{"90"}, []string{"89.9"}, Block, 0, "drops from 90.0 to 89.9 (one pair decides: the rubric's gate asks for no confirming pairs)"},
		{"no confirmation: equal passes", 0, 0, []string{"90"}, []string{"90"}, Pass, 0, "head 90, base 90"},
		{"values shown as the rule rounds them", 1, 2, []string{"2.9"}, []string{"3"}, Pass, 0, "head 3.0, base 2.9"},
		{"an even count: the median with one more digit", 1, 1, []string{"3.2", "3.2"}, []string{"3.1", "3.2"}, Block, 0, "median over 2 pairs is 3.15, below the base's 3.2"},
		{"one confirming pair: the mean of two", 1, 1, []string{"3.2", "3.2"}, []string{"3.1", "3.3"}, Pass, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := decide("mean", tt.round, tt.confirm, nums(tt.base...), nums(tt.head...))
			if v.decision != tt.want || v.more != tt.more {
				t.Fatalf("got %q with %d more, want %q with %d more (%s)", v.decision, v.more, tt.want, tt.more, v.reason)
			}
			if !strings.Contains(v.reason, tt.reason) {
				t.Errorf("reason %q lacks %q", v.reason, tt.reason)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	for d, want := range map[Decision]int{Pass: 0, Block: 1, Invalid: 2, "": 2} {
		if got := d.ExitCode(); got != want {
			t.Errorf("%q exits %d, want %d", d, got, want)
		}
	}
}

func TestMedianText(t *testing.T) {
	for _, tt := range []struct {
		in     []string
		digits int
		want   string
	}{{[]string{"3.1", "3.2"}, 1, "3.15"}, {[]string{"3.1", "3.3"}, 1, "3.2"}, {[]string{"3", "3"}, 1, "3.0"}, {[]string{"89", "90"}, 0, "89.5"}} {
		if got := medianText(median(nums(tt.in...)), tt.digits); got != tt.want {
			t.Errorf("medianText(median%v, %d) = %s, want %s", tt.in, tt.digits, got, tt.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{{[]string{"3"}, "3"}, {[]string{"3.3", "3.1", "3.2"}, "16/5"}, {[]string{"1", "2"}, "3/2"}, {[]string{"4", "1", "3", "2"}, "5/2"}} {
		if got := median(nums(tt.in...)).Exact(); got != tt.want {
			t.Errorf("median%v = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestTextValue writes a compared value as the score's summary does: the
// exact form only when it is short, after "exactly" (the gate printed
// base 3.9 (541/140), and any fraction however long).
func TestTextValue(t *testing.T) {
	for _, tt := range []struct {
		v    Value
		want string
	}{
		{Value{Value: "3.9", Exact: "541/140"}, "3.9 (exactly 541/140)"},
		{Value{Value: "81.3", Exact: "38062009/468000"}, "81.3"},
		{Value{Value: "4.0", Exact: "4"}, "4.0"},
		{Value{Value: "3.5", Exact: "7/2"}, "3.5"},
	} {
		if got := textValue(tt.v); got != tt.want {
			t.Errorf("textValue(%+v) = %q, want %q", tt.v, got, tt.want)
		}
		if got := textValue(tt.v); got != tt.want {
			t.Errorf("textValue(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestSummariesSayOne: the gate's Markdown says "1 decimal", not
// "1 decimal(s)".
func TestSummariesSayOne(t *testing.T) {
	for round, want := range map[int]string{1: "rounded to 1 decimal once", 2: "rounded to 2 decimals once"} {
		var b strings.Builder
		r := &Report{Decision: Pass, Rule: Rule{Title: "mean TDQS", Value: "metrics.meanTdqs", Round: round}}
		if err := WriteMarkdown(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("round %d: the summary lacks %q:\n%s", round, want, b.String())
		}
	}
}

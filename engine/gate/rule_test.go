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
		confirm    int
		base, head []string
		want       Decision
		more       int
		reason     string
	}{
		{"equal on the first pair", 2, []string{"3.2"}, []string{"3.2"}, Pass, 0, "holds"},
		{"better on the first pair", 2, []string{"3.2"}, []string{"3.4"}, Pass, 0, "holds"},
		{"a drop asks for two more pairs", 2, []string{"3.2"}, []string{"3.1"}, "", 2, ""},
		{"a drop asks for the pairs still missing", 2, []string{"3.2", "3.2"}, []string{"3.1", "3.2"}, "", 1, ""},
		{"a confirmed drop blocks", 2, []string{"3.2", "3.2", "3.3"}, []string{"3.1", "3.1", "3.3"}, Block, 0, "median over 3 pairs is 3.1, below the base's 3.2"},
		{"an unconfirmed drop passes", 2, []string{"3.2", "3.2", "3.2"}, []string{"3.1", "3.2", "3.3"}, Pass, 0, "not below"},
		{"the medians, not the means", 2, []string{"3.2", "3.2", "3.2"}, []string{"3.1", "3.2", "4.0"}, Pass, 0, ""},
		{"a base that varies", 2, []string{"3.2", "3.3", "3.4"}, []string{"3.1", "3.2", "3.5"}, Block, 0, ""},
		{"no confirmation: the first drop blocks", 0, []string{"90"}, []string{"89.9"}, Block, 0, "confirms no drop"},
		{"no confirmation: equal passes", 0, []string{"90"}, []string{"90"}, Pass, 0, ""},
		{"one confirming pair: the mean of two", 1, []string{"3.2", "3.2"}, []string{"3.1", "3.3"}, Pass, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := decide("mean", tt.confirm, nums(tt.base...), nums(tt.head...))
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

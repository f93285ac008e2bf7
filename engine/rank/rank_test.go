package rank

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
)

func nums(ss ...string) []*num.Num {
	out := make([]*num.Num, len(ss))
	for i, s := range ss {
		if s != "" {
			n := num.MustParse(s)
			out[i] = &n
		}
	}
	return out
}

// TestTau: four servers checked by hand.
func TestTau(t *testing.T) {
	for _, tt := range []struct {
		name     string
		old, new []*num.Num
		want     float64
		ok       bool
	}{
		// A 90, B 80, C 70, D 60 becomes A 85, B 88, C 70, D 50: of the
		// six pairs only A-B swaps, so (5 - 1) / 6 = 2/3.
		{"one swap", nums("90", "80", "70", "60"), nums("85", "88", "70", "50"), 2.0 / 3, true},
		// The same order: 6 / 6.
		{"same order", nums("90", "80", "70", "60"), nums("9", "8", "7", "6"), 1, true},
		// Reversed: -6 / 6.
		{"reversed", nums("90", "80", "70", "60"), nums("1", "2", "3", "4"), -1, true},
		// A and B tie before, B and C after: A-B and B-C count for
		// neither; the other four agree: 4 / sqrt((6 - 1) x (6 - 1)) = 0.8.
		{"ties on both sides", nums("90", "90", "70", "60"), nums("80", "70", "70", "60"), 0.8, true},
		// D has no score after: three servers, three pairs, one swap:
		// (2 - 1) / 3.
		{"a server without a score", nums("90", "80", "70", "60"), nums("85", "88", "70", ""), 1.0 / 3, true},
		{"all tied", nums("5", "5", "5"), nums("1", "2", "3"), 0, false},
		{"one server", nums("5"), nums("1"), 0, false},
	} {
		got, ok := Tau(tt.old, tt.new)
		if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: got %v %v, want %v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRanks(t *testing.T) {
	for _, tt := range []struct {
		scores []*num.Num
		want   []int
	}{
		{nums("70", "90", "80"), []int{3, 1, 2}},
		{nums("90", "80", "80", "60"), []int{1, 2, 2, 4}},
		{nums("90", "", "60"), []int{1, 0, 2}},
	} {
		if got := Ranks(tt.scores); !slices.Equal(got, tt.want) {
			t.Errorf("Ranks: got %v, want %v", got, tt.want)
		}
	}
}

// TestWriteTextNamesTheOldRubric: the table starts with the rubric the
// reports were scored with, each digest among them once (one name and
// version, edited without a new version), then the new one; with no
// report rescored there is no old line.
func TestWriteTextNamesTheOldRubric(t *testing.T) {
	for _, tt := range []struct {
		name string
		old  []report.Rubric
		want string
	}{
		{"one digest", []report.Rubric{{Name: "sq", Version: "1.0", Digest: "sha256:aaaaaaaaaaaaaaaa"}},
			"old: sq 1.0 (sha256:aaaaaaaaaaaa)\nnew: mine 2.0 (sha256:cccccccccccc), zero judge calls"},
		{"two digests of one version", []report.Rubric{{Name: "sq", Version: "1.0", Digest: "sha256:aaaaaaaaaaaaaaaa"}, {Name: "sq", Version: "1.0", Digest: "sha256:bbbbbbbbbbbbbbbb"}},
			"old: sq 1.0 (sha256:aaaaaaaaaaaa, sha256:bbbbbbbbbbbb)\nnew: mine 2.0"},
		{"nothing rescored", nil, "new: mine 2.0"},
	} {
		k := &Ranking{Rubric: report.Rubric{Name: "mine", Version: "2.0", Digest: "sha256:cccccccccccccccc"}, Old: tt.old}
		var b strings.Builder
		if err := k.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), tt.want) {
			t.Errorf("%s: got\n%s\nwant it to start with\n%s", tt.name, b.String(), tt.want)
		}
	}
}

// TestWriteTextNamesLeft: the ranking's servers are aligned left, as
// rescore's table of tools aligns its tools, and the numbers right; every
// name was right-aligned, ragged on its left.
func TestWriteTextNamesLeft(t *testing.T) {
	k := &Ranking{Servers: []*Ranked{
		{Server: "Context7", OldScore: "100.0", OldGrade: "A", OldRank: 1, NewScore: "100.0", NewGrade: "A", NewRank: 1},
		{Server: "@aashari/mcp-server-atlassian-jira", OldScore: "95.5", OldGrade: "A", OldRank: 2, NewScore: "95.5", NewGrade: "A", NewRank: 2},
		{Server: "broken", Error: "unreadable"},
	}}
	var b strings.Builder
	if err := k.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"server                                old  grade  rank    new  grade  rank  moved\n" +
		"Context7                            100.0      A     1  100.0      A     1      0\n" +
		"@aashari/mcp-server-atlassian-jira   95.5      A     2   95.5      A     2      0\n"
	if _, table, _ := strings.Cut(b.String(), "\n\n"); !strings.HasPrefix(table, want) {
		t.Errorf("got\n%s\nwant the table\n%s", table, want)
	}
}

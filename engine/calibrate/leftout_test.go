package calibrate_test

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/num"
)

// TestPublishedLeftOut: a published value of a matched name that is of
// another kind than the rubric's, or outside its scale, is left out and
// named with why; a name nothing matches is listed, the whole set's as
// well as the tools'. What is left out stays out when the record checks
// itself against the capture.
func TestPublishedLeftOut(t *testing.T) {
	scale := &calibrate.Range{Min: num.MustParse("1"), Max: num.MustParse("5")}
	for _, tc := range []struct {
		name      string
		old, new  string
		scale     *calibrate.Range
		excluded  []string
		unmatched string
		warnings  []string
		ratings   int
	}{
		{name: "as published", ratings: 3, warnings: []string{`no tool report field of rated matches the published value extra: left out`}},
		{name: "a rating as a string", old: `"rating": 5,`, new: `"rating": "5",`, ratings: 2,
			excluded: []string{`alpha's published rating is the string "5", not a number: left out`}},
		{name: "a rating as prose", old: `"rating": 5,`, new: `"rating": "five of five",`, ratings: 2,
			excluded: []string{`alpha's published rating is the text "five of five", not a number: left out`}},
		{name: "a dimension as null", old: `"scores": {"clarity": 4}`, new: `"scores": {"clarity": null}`, ratings: 3,
			excluded: []string{`beta's published scores.clarity is null, not a number: left out`}},
		{name: "a rating outside the scale", old: `"rating": 5,`, new: `"rating": 42,`, scale: scale, ratings: 2,
			excluded: []string{`alpha's published rating is 42, outside the rubric's scale, 1 to 5: left out`}},
		{name: "a rating outside no scale", old: `"rating": 5,`, new: `"rating": 42,`, ratings: 3},
		{name: "a label as a number", old: `"band": "poor"`, new: `"band": 1`, ratings: 3,
			excluded: []string{`"a|b` + "`" + `c\nd"'s published band is the number 1, not a label: left out`}},
		{name: "a qualityScore that is a number", old: `"qualityScore": {"rating": 3, "band": "good", "scores": {"clarity": 4}}`, new: `"qualityScore": 4.2`, ratings: 2,
			excluded: []string{`beta's published qualityScore is the number 4.2, not an object of named values, so none of it matches the rubric's: left out`}},
		{name: "a qualityScore that is a label", old: `"qualityScore": {"rating": 3, "band": "good", "scores": {"clarity": 4}}`, new: `"qualityScore": "high"`, ratings: 2,
			excluded: []string{`beta's published qualityScore is the text "high", not an object of named values, so none of it matches the rubric's: left out`}},
		{name: "a qualityScore that is null", old: `"qualityScore": {"rating": 3, "band": "good", "scores": {"clarity": 4}}`, new: `"qualityScore": null`, ratings: 2,
			excluded: []string{`beta's published qualityScore is null, not an object of named values, so none of it matches the rubric's: left out`}},
		{name: "no qualityScore at all", old: `,
     "qualityScore": {"rating": 3, "band": "good", "scores": {"clarity": 4}}`, new: ``, ratings: 2},
		{name: "a value of the set of another kind", old: `"meanRating": 3.5`, new: `"meanRating": "high"`, ratings: 3,
			excluded: []string{`the server's published meanRating is the string "high", not a number: left out`}},
		{name: "a value of the set nothing matches", old: `"meanRating": 3.5`, new: `"meanRating": 3.5, "overall": 4`, ratings: 3,
			unmatched: "overall", warnings: []string{`no surface report value of rated matches the server's published value overall: left out`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capture := ratedCapture
			if tc.old != "" {
				if !strings.Contains(capture, tc.old) {
					t.Fatalf("the capture has no %s", tc.old)
				}
				capture = strings.Replace(capture, tc.old, tc.new, 1)
			}
			rec, c := calibrateCapture(t, capture, calibrate.Options{Scale: tc.scale})
			var excluded []string
			for _, e := range rec.Measures.Excluded {
				excluded = append(excluded, e.String())
			}
			if strings.Join(excluded, "\n") != strings.Join(tc.excluded, "\n") {
				t.Errorf("excluded:\n%s\nwant:\n%s", strings.Join(excluded, "\n"), strings.Join(tc.excluded, "\n"))
			}
			if got := strings.Join(rec.Measures.UnmatchedServer, ","); got != tc.unmatched {
				t.Errorf("unmatched of the set %q, want %q", got, tc.unmatched)
			}
			warnings := strings.Join(rec.Warnings(), "\n")
			for _, w := range append(tc.excluded, tc.warnings...) {
				if !strings.Contains(warnings, w) {
					t.Errorf("the warnings do not say %q:\n%s", w, warnings)
				}
			}
			if got := rec.Statistics.Measures[0].Tools; got != tc.ratings {
				t.Errorf("ratings compared on %d tools, want %d", got, tc.ratings)
			}
			if own := rec.Verify(c); len(own) > 0 {
				t.Errorf("the record does not agree with itself: %v", own)
			}
		})
	}
}

// TestCaptureWithoutTools: a capture that lists no tools says so.
func TestCaptureWithoutTools(t *testing.T) {
	_, err := calibrate.ParseCapture("empty.json", []byte(`{"release": "x", "server": {}, "tools": []}`))
	if err == nil || !strings.HasPrefix(err.Error(), "empty.json: the capture has no tools") {
		t.Errorf("err = %v, want one that says the capture has no tools", err)
	}
}

// TestEveryQualityScoreBare: when no tool's qualityScore is an object of
// named values, nothing can be matched, and the refusal says what the
// qualityScores are instead of only that no name matched.
func TestEveryQualityScoreBare(t *testing.T) {
	capture := ratedCapture
	for _, old := range []string{
		`{"justification": "long prose here", "scores": {"clarity": 3}, "band": "good", "rating": 5, "extra": 1}`,
		`{"rating": 3, "band": "good", "scores": {"clarity": 4}}`,
		`{"rating": 2, "band": "poor", "scores": {"clarity": 3}}`,
	} {
		if !strings.Contains(capture, old) {
			t.Fatalf("the capture has no %s", old)
		}
		capture = strings.Replace(capture, old, "4.5", 1)
	}
	c, reps := scoredRuns(t, capture, 1)
	_, err := calibrate.New(c, reps, calibrate.Options{})
	want := "the capture publishes no top-level number (the qualityScore of 3 tools is no object of named values: alpha's is the number 4.5)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want it to say %q", err, want)
	}
}

// TestCaptureRefusedForItsShape: a file that is no registry capture is
// refused as such, even when the surface's reading would find something
// else wrong in it first (two tools of one name, as a list of the
// scores a registry's pages showed had); a registry capture keeps the
// reading's own error, which says where.
func TestCaptureRefusedForItsShape(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"scores scraped from pages", `{"_about": "x", "tools": [{"name": "read", "url": "u1"}, {"name": "read", "url": "u2"}]}`, "is not a registry capture"},
		{"a tools array", `[{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]`, "is not a registry capture"},
		{"a registry capture", `{"release": "r", "server": {}, "tools": [{"name": "a", "definition": {"name": "a"}}, {"name": "a", "definition": {"name": "a"}}]}`, `duplicate tool name "a"`},
		{"registry entries", `{"tools": [{"name": "a", "definition": {"name": "a"}}, {"name": "a", "definition": {"name": "a"}}]}`, `duplicate tool name "a"`},
		{"not JSON", `{"release": `, "c.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := calibrate.ParseCapture("c.json", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one that says %q", err, c.want)
			}
		})
	}
}

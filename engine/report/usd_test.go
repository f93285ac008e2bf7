package report

import "testing"

// TestUSD: amounts read to the hundredth of a cent, and one too small
// for that (a budget of $0.000001) still reads as what it is, not $0.0000.
func TestUSD(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "$0.0000"},
		{0.18, "$0.1800"},
		{0.0011, "$0.0011"},
		{0.0001, "$0.0001"},
		{0.000001, "$0.000001"},
		{0.0000123, "$0.000012"},
		{0.00004, "$0.00004"},
		{-0.000002, "$-0.000002"},
		{12.5, "$12.5000"},
	} {
		if got := USD(tc.v); got != tc.want {
			t.Errorf("USD(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestCallsSummaryTinyCost: a run whose calls cost less than a hundredth
// of a cent says what they cost, not $0.0000 (as if nothing was spent).
func TestCallsSummaryTinyCost(t *testing.T) {
	c := Calls{Questions: 1, Model: 1, Tokens: 20, Cost: &Cost{USD: 0.000002, Prices: "2026-12-01"}}
	want := "1 question: 1 call, 0 from the cache, 20 tokens, $0.000002 at the prices of 2026-12-01"
	if got := c.Summary(); got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}

// TestCallsSummaryRefusals: requests the provider refused for now, and
// batch items it never answered, are no calls: the summary counts them
// apart, after the calls.
func TestCallsSummaryRefusals(t *testing.T) {
	for _, tc := range []struct {
		c    Calls
		want string
	}{
		{Calls{Questions: 49, Model: 49, Tokens: 980}, "49 questions: 49 calls, 0 from the cache, 980 tokens"},
		{Calls{Questions: 49, Model: 49, RateLimited: 3, Tokens: 980},
			"49 questions: 49 calls, 3 refused for now by the provider (a rate limit or a server error) and asked again, 0 from the cache, 980 tokens"},
		{Calls{Questions: 21, Unanswered: 21},
			"21 questions: 0 calls, 21 never answered (the batch ended first or the provider failed them), 0 from the cache, 0 tokens"},
		{Calls{Questions: 2, Model: 1, Unanswered: 1, Tokens: 20},
			"2 questions: 1 call, 1 never answered (the batch ended first or the provider failed it), 0 from the cache, 20 tokens"},
	} {
		if got := tc.c.Summary(); got != tc.want {
			t.Errorf("Summary() = %q\nwant %q", got, tc.want)
		}
	}
}

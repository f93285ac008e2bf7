package num

import "testing"

func TestRoundHalfAwayFromZero(t *testing.T) {
	tests := []struct {
		in     string
		digits int
		want   string
	}{
		{"3.25", 1, "3.3"},
		{"2.85", 1, "2.9"}, // float64 2.85 is 2.8499999…; exact is a tie
		{"2.849999", 1, "2.8"},
		{"1.005", 2, "1.01"}, // float64 rounds this to 1.00
		{"-0.25", 1, "-0.3"},
		{"-0.24", 1, "-0.2"},
		{"1373/15", 1, "91.5"}, // 91.5333…
		{"3.86", 1, "3.9"},
		{"4.75", 1, "4.8"},
		{"0.05", 1, "0.1"},
		{"0.049", 1, "0"},
		{"125", -1, "130"},
		{"7/2", 0, "4"},
		{"-7/2", 0, "-4"},
	}
	for _, tt := range tests {
		got := MustParse(tt.in).Round(tt.digits)
		if want := MustParse(tt.want); got.Cmp(want) != 0 {
			t.Errorf("Round(%s, %d) = %s, want %s", tt.in, tt.digits, got.Exact(), tt.want)
		}
	}
}

func TestExactArithmetic(t *testing.T) {
	a, b := MustParse("0.1"), MustParse("0.2")
	if got := a.Add(b); got.Cmp(MustParse("0.3")) != 0 {
		t.Fatalf("0.1+0.2 = %s, want 3/10", got.Exact())
	}
	if 0.1+0.2 == 0.3 { //nolint:staticcheck // the point of the test
		t.Log("unexpected: floats agree")
	}
	third, err := One.Quo(Int(3))
	if err != nil {
		t.Fatal(err)
	}
	if got := third.Mul(Int(3)); got.Cmp(One) != 0 {
		t.Fatalf("(1/3)*3 = %s", got.Exact())
	}
	if _, err := One.Quo(Zero); err == nil {
		t.Fatal("1/0: want an error")
	}
}

func TestFloatUsesShortestDecimal(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{{0.1, "1/10"}, {0.6, "3/5"}, {2.85, "57/20"}, {90, "90"}, {1e-7, "1/10000000"}} {
		n, err := Float(tt.f)
		if err != nil {
			t.Fatal(err)
		}
		if n.Exact() != tt.want {
			t.Errorf("Float(%v) = %s, want %s", tt.f, n.Exact(), tt.want)
		}
	}
}

func TestFormats(t *testing.T) {
	tests := []struct {
		in                   string
		exact, str, decimal1 string
	}{
		{"1373/15", "1373/15", "1373/15", "91.5"},
		{"91.5", "183/2", "91.5", "91.5"},
		{"100", "100", "100", "100.0"},
		{"0", "0", "0", "0.0"},
		{"-1/8", "-1/8", "-0.125", "-0.1"},
	}
	for _, tt := range tests {
		n := MustParse(tt.in)
		if n.Exact() != tt.exact || n.String() != tt.str || n.Decimal(1) != tt.decimal1 {
			t.Errorf("%s: Exact=%s String=%s Decimal(1)=%s; want %s %s %s", tt.in, n.Exact(), n.String(), n.Decimal(1), tt.exact, tt.str, tt.decimal1)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, s := range []string{"", "abc", "1/0", "0x10", "NaN", "Inf", "1,5"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q): want an error", s)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	n := MustParse("1373/15")
	b, _ := n.MarshalJSON()
	var m Num
	if err := m.UnmarshalJSON(b); err != nil || m.Cmp(n) != 0 {
		t.Fatalf("round trip: %s %v", b, err)
	}
}

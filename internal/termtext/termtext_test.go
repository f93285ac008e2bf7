package termtext

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttext\n":             "plain\ttext\n",
		"\x1b[31mred\x1b[0m":        "red",
		"crlf\r\n":                  "crlf\n",
		"bell\a and \x00":           "bell\uFFFD and \uFFFD",
		"bad \xff byte":             "bad \uFFFD byte",
		"caf\u00e9 \u2014 ok":       "caf\u00e9 \u2014 ok",
		"osc \x1b]0;title\x07 done": "osc  done",
		"st \x1b]0;t\x1b\\ end":     "st  end",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTail(t *testing.T) {
	tl := &Tail{Max: 26}
	if got := tl.Quote(2); got != "" {
		t.Errorf("Quote of nothing = %q, want none", got)
	}
	tl.Write([]byte("first line\nsecond\n\n\x1b[31mthird\x1b[0m\n"))
	// The kept 26 bytes begin mid-line ("ne\nsecond..."): that part is dropped.
	if got, want := tl.Quote(5), "; its stderr ended with:\n    second\n    third"; got != want {
		t.Errorf("Quote = %q, want %q", got, want)
	}
	if got, want := tl.Quote(1), "; its stderr ended with: third"; got != want {
		t.Errorf("Quote(1) = %q, want %q", got, want)
	}
}

func TestQuoteStart(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 80, `"short"`},
		{"abcdef", 3, `"abc"…`},
		{"\x1b]52;c;aGk=\a", 80, `"\x1b]52;c;aGk=\a"`},
		{"aé", 2, `"a"…`}, // the cut falls inside é: it moves back to a character's start
	}
	for _, tt := range tests {
		if got := QuoteStart([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("QuoteStart(%q, %d) = %s, want %s", tt.in, tt.n, got, tt.want)
		}
	}
}

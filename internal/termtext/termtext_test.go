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

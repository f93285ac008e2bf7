package nearest

import "testing"

func TestKey(t *testing.T) {
	known := []string{"timeout", "temperature", "top_p"}
	cases := map[string]string{
		"timeout": "timeout", "Timeout": "timeout", "tmeout": "timeout", "timeuot": "timeout",
		"top-p": "top_p", "topp": "top_p", "top": "top_p", "temp": "temperature",
		"t": "", "tp": "", "xyz": "", "": "",
	}
	for k, want := range cases {
		if got := Key(k, known); got != want {
			t.Errorf("Key(%q) = %q, want %q", k, got, want)
		}
	}
}

package gate

import "testing"

// TestBriefReason: a reason of several lines, a crashed plugin's panic
// and stack, is one line in the terminal and gate.md, with the panic
// message, and no escaped newlines.
func TestBriefReason(t *testing.T) {
	for _, tc := range []struct{ name, reason, want string }{
		{"one line", "the mean fell", "the mean fell"},
		{"a panic", "asking x: the judge plugin \"crash\" (pid 7) crashed during ask: it ended with exit status 2; its stderr ended with:\ncrash: dying now\npanic: deliberate\n\ngoroutine 33 [running]:\nmain.Ask()\n\t/src/main.go:36 +0x279",
			"asking x: the judge plugin \"crash\" (pid 7) crashed during ask: it ended with exit status 2; its stderr ended with: panic: deliberate (the whole text is the reason in gate.json)"},
		{"last words, no panic", "the plugin crashed; its stderr ended with:\n\nerror: reading, then dying\nmore",
			"the plugin crashed; its stderr ended with: error: reading, then dying (the whole text is the reason in gate.json)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := briefReason(tc.reason); got != tc.want {
				t.Errorf("briefReason:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

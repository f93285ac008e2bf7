package host

import "testing"

// TestStderrIsQuotedSafely: what a crashed plugin last wrote reaches the
// user's terminal without its escape sequences or control characters.
func TestStderrIsQuotedSafely(t *testing.T) {
	got := (&CrashError{Kind: "judge", Name: "x", PID: 7, During: "Ask", Status: "exit status 2", Stderr: "\x1b]0;owned\x07panic: \x1b[31mboom\x1b[0m\a\n"}).Error()
	want := "the judge plugin \"x\" (pid 7) crashed during Ask: exit status 2; its stderr ended with:\npanic: boom\uFFFD\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

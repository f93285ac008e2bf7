package transport

import (
	"testing"
	"time"
)

func TestSized(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1500, "1500 bytes"},
		{12 << 10, "12 KiB"},
		{64 << 20, "64 MiB"},
		{(1 << 20) + 1024, "1025 KiB"},
	} {
		if got := Sized(tc.n); got != tc.want {
			t.Errorf("Sized(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestLimitsWithDefaults(t *testing.T) {
	got := Limits{MaxTools: 5}.WithDefaults()
	want := Limits{StartTimeout: DefaultStartTimeout, RequestTimeout: DefaultRequestTimeout, MaxBytes: DefaultMaxBytes, MaxTools: 5}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if (Limits{RequestTimeout: time.Second}).WithDefaults().RequestTimeout != time.Second {
		t.Error("a set field was replaced")
	}
}

func TestTargetString(t *testing.T) {
	if s := (Target{Location: "npx", Args: []string{"-y", "pkg"}}).String(); s != "npx -y pkg" {
		t.Errorf("got %q", s)
	}
}

package transport

import (
	"strings"
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

func TestMeasured(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1023, "1023 bytes"},
		{1500, "1.5 KiB (1500 bytes)"},
		{2 << 10, "2 KiB (2048 bytes)"},
		{2321178, "2.2 MiB (2321178 bytes)"},
		{(1 << 20) - 1, "1.0 MiB (1048575 bytes)"},
		{(1 << 20) - 1024, "1023 KiB (1047552 bytes)"},
		{(1 << 20) - 1500, "1022.5 KiB (1047076 bytes)"},
		{3 << 30, "3 GiB (3221225472 bytes)"},
	} {
		if got := Measured(tc.n); got != tc.want {
			t.Errorf("Measured(%d) = %q, want %q", tc.n, got, tc.want)
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

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1048576", 1 << 20},
		{"64MiB", 64 << 20},
		{"64mib", 64 << 20},
		{"512 KiB", 512 << 10},
		{"1GiB", 1 << 30},
		{"2MB", 2_000_000},
		{"10B", 10},
		{"0", -1},
		{"-5", -1},
		{"MiB", -1},
		{"B", -1},
		{"5iB", -1},
		{"1.5MiB", -1},
		{"99999999999GiB", -1},
		{"1048576GiB", 1 << 50},
		{"1048577GiB", -1},
		{"2147483648GiB", -1},
		{"9223372036854775807", -1},
	} {
		got, err := ParseSize(tc.in)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("ParseSize(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// A limit of zero or less is refused with the flag to fix, not read as
// the default.
func TestLimitsCheck(t *testing.T) {
	ok := Limits{}.WithDefaults()
	tests := []struct {
		name string
		edit func(*Limits)
		want string
	}{
		{"the defaults", func(*Limits) {}, ""},
		{"no tools", func(l *Limits) { l.MaxTools = 0 }, "--max-tools 0: give a count above zero, such as 10000"},
		{"negative tools", func(l *Limits) { l.MaxTools = -1 }, "--max-tools -1"},
		{"zero start timeout", func(l *Limits) { l.StartTimeout = 0 }, "--start-timeout 0s: give a duration above zero"},
		{"negative request timeout", func(l *Limits) { l.RequestTimeout = -time.Second }, "--request-timeout -1s"},
		{"no bytes", func(l *Limits) { l.MaxBytes = 0 }, "--max-bytes 0: give a size above zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ok
			tt.edit(&l)
			err := l.Check()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

package transport

import (
	"reflect"
	"testing"
)

func TestPairs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items []string
		colon bool
		want  map[string]string
		err   string
	}{
		{name: "none", want: nil},
		{name: "= in the value", items: []string{"A=1", "B=x=y", " C =z"}, want: map[string]string{"A": "1", "B": "x=y", "C": "z"}},
		{name: "curl's form", items: []string{"Authorization: Bearer abc==", "X-A=b:c"}, colon: true, want: map[string]string{"Authorization": "Bearer abc==", "X-A": "b:c"}},
		{name: "no colon form for --env", items: []string{"A:1"}, err: "--env number 1 of 1 is not NAME=VALUE (its text is not shown: it may hold a secret): give it as NAME=VALUE"},
		{name: "an empty name", items: []string{"A=1", "=2"}, err: "--env number 2 of 2 is not NAME=VALUE (its text is not shown: it may hold a secret): give it as NAME=VALUE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Pairs("--env", tc.items, tc.colon)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestMergeHeaders(t *testing.T) {
	t.Setenv("TEST_HEADER_TOKEN", "s3cret")
	for _, tc := range []struct {
		name   string
		config map[string]string
		lines  []string
		want   map[string]string
		err    string
	}{
		{name: "none", want: nil},
		{name: "config expanded, later wins, names canonical",
			config: map[string]string{"authorization": "Bearer ${TEST_HEADER_TOKEN}", "x-team": "config"},
			lines:  []string{"X-Team=flag", "x-other: 2"},
			want:   map[string]string{"Authorization": "Bearer s3cret", "X-Team": "flag", "X-Other": "2"}},
		{name: "a bad line", lines: []string{"Authorization Bearer abc"}, err: "--header number 1 of 1 is not NAME=VALUE or NAME: VALUE (its text is not shown: it may hold a secret): give it as NAME=VALUE or NAME: VALUE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MergeHeaders(tc.config, "--header", tc.lines)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

package judgeopt

import (
	"strings"
	"testing"
	"time"
)

func TestOptions(t *testing.T) {
	known := []string{"base_url", "temperature", "max_tokens", "timeout", "api_key_env", "mode"}
	if _, err := NewOptions("demo", map[string]string{"tempo": "1", "colour": "x"}, known...); err == nil ||
		err.Error() != `the demo judge has no options "colour", "tempo"; its options are api_key_env, base_url, max_tokens, mode, temperature, timeout` {
		t.Errorf("unknown options: %v", err)
	}
	o, err := NewOptions("demo", map[string]string{
		"base_url": "http://localhost:8000/v1/", "temperature": "0.7", "max_tokens": " ", "timeout": "90s", "mode": "b",
	}, known...)
	if err != nil {
		t.Fatal(err)
	}
	if u, err := o.BaseURL("base_url", "https://x/v1"); err != nil || u.String() != "http://localhost:8000/v1" {
		t.Errorf("BaseURL: %v, %v", u, err)
	}
	if f, ok, err := o.Float("temperature"); f != 0.7 || !ok || err != nil {
		t.Errorf("Float: %v %v %v", f, ok, err)
	}
	if _, ok, err := o.Int("max_tokens", 1); ok || err != nil {
		t.Errorf("a blank option counts as given: %v %v", ok, err)
	}
	if d, err := o.Duration("timeout", time.Minute); d != 90*time.Second || err != nil {
		t.Errorf("Duration: %v %v", d, err)
	}
	if d, err := o.Duration("absent", time.Minute); d != time.Minute || err != nil {
		t.Errorf("Duration default: %v %v", d, err)
	}
	if m, err := o.OneOf("mode", "a", "a", "b"); m != "b" || err != nil {
		t.Errorf("OneOf: %v %v", m, err)
	}
	if e, err := o.EnvName("api_key_env", "DEMO_KEY"); e != "DEMO_KEY" || err != nil || o.Given("api_key_env") {
		t.Errorf("EnvName default: %v %v", e, err)
	}

	bad := []struct {
		key, value string
		read       func(*Options) error
		want       string
	}{
		{"temperature", "NaN", func(o *Options) error { _, _, err := o.Float("temperature"); return err }, "a number not below 0"},
		{"temperature", "-1", func(o *Options) error { _, _, err := o.Float("temperature"); return err }, "a number not below 0"},
		{"max_tokens", "99999999999999999999", func(o *Options) error { _, _, err := o.Int("max_tokens", 1); return err }, "a whole number from 1"},
		{"timeout", "-5s", func(o *Options) error { _, err := o.Duration("timeout", 0); return err }, "a positive duration"},
		{"base_url", "ftp://host/v1", func(o *Options) error { _, err := o.BaseURL("base_url", "https://x/v1"); return err }, "an http or https URL"},
		{"base_url", "http://host/v1?key=1", func(o *Options) error { _, err := o.BaseURL("base_url", "https://x/v1"); return err }, "an http or https URL"},
		{"api_key_env", "sk-live-123", func(o *Options) error { _, err := o.EnvName("api_key_env", "DEMO_KEY"); return err }, "not the key itself"},
		{"mode", "c", func(o *Options) error { _, err := o.OneOf("mode", "a", "a", "b"); return err }, "one of a, b"},
	}
	for _, b := range bad {
		o, err := NewOptions("demo", map[string]string{b.key: b.value}, known...)
		if err != nil {
			t.Fatal(err)
		}
		err = b.read(o)
		if err == nil || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), "the demo judge's option "+b.key) {
			t.Errorf("%s = %q: %v", b.key, b.value, err)
		}
		if b.key == "api_key_env" && err != nil && strings.Contains(err.Error(), b.value) {
			t.Errorf("the pasted key is echoed: %v", err)
		}
	}
}

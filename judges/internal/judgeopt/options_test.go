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
	if f, ok, err := o.Float("temperature", 0, 2); f != 0.7 || !ok || err != nil {
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
		// ends is how the message ends: how the user gives the option,
		// for the key alone is spelt as no flag and no key of rubric.yaml.
		ends string
	}{
		{"temperature", "NaN", func(o *Options) error { _, _, err := o.Float("temperature", 0, 2); return err }, "a number from 0 to 2", ": give it with --judge-option temperature=N (or in --judge demo:temperature=N)"},
		{"temperature", "-1", func(o *Options) error { _, _, err := o.Float("temperature", 0, 2); return err }, `a number from 0 to 2, not "-1"`, ": give it with --judge-option temperature=N (or in --judge demo:temperature=N)"},
		{"temperature", "9", func(o *Options) error { _, _, err := o.Float("temperature", 0, 2); return err }, `a number from 0 to 2, not "9"`, ": give it with --judge-option temperature=N (or in --judge demo:temperature=N)"},
		{"temperature", "Inf", func(o *Options) error { _, _, err := o.Float("temperature", 0, 2); return err }, "a number from 0 to 2", ": give it with --judge-option temperature=N (or in --judge demo:temperature=N)"},
		{"temperature", "0.5", func(o *Options) error { _, _, err := o.Float("temperature", 0, 0.25); return err }, `a number from 0 to 0.25, not "0.5"`, ": give it with --judge-option temperature=N (or in --judge demo:temperature=N)"},
		{"max_tokens", "99999999999999999999", func(o *Options) error { _, _, err := o.Int("max_tokens", 1); return err }, "a whole number from 1", ": give it with --judge-option max_tokens=N (or in --judge demo:max_tokens=N)"},
		{"timeout", "-5s", func(o *Options) error { _, err := o.Duration("timeout", 0); return err }, "a positive duration", ": give it with --judge-option timeout=DURATION (or in --judge demo:timeout=DURATION)"},
		{"base_url", "ftp://host/v1", func(o *Options) error { _, err := o.BaseURL("base_url", "https://x/v1"); return err }, "an http or https URL", ": give it with --base-url (or base_url=URL in --judge-option or in --judge demo:base_url=URL)"},
		{"base_url", "http://host/v1?key=1", func(o *Options) error { _, err := o.BaseURL("base_url", "https://x/v1"); return err }, "an http or https URL", ": give it with --base-url (or base_url=URL in --judge-option or in --judge demo:base_url=URL)"},
		{"api_key_env", "sk-live-123", func(o *Options) error { _, err := o.EnvName("api_key_env", "DEMO_KEY"); return err }, "not the key itself", ": give it with --judge-option api_key_env=NAME (or in --judge demo:api_key_env=NAME)"},
		{"mode", "c", func(o *Options) error { _, err := o.OneOf("mode", "a", "a", "b"); return err }, "one of a, b", ": give it with --judge-option mode=a (or in --judge demo:mode=a)"},
	}
	for _, b := range bad {
		o, err := NewOptions("demo", map[string]string{b.key: b.value}, known...)
		if err != nil {
			t.Fatal(err)
		}
		err = b.read(o)
		if err == nil || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), "the demo judge's option "+b.key) || !strings.HasSuffix(err.Error(), b.ends) {
			t.Errorf("%s = %q: %v", b.key, b.value, err)
		}
		if b.key == "api_key_env" && err != nil && strings.Contains(err.Error(), b.value) {
			t.Errorf("the pasted key is echoed: %v", err)
		}
	}
}

// TestTypos: a misspelt option is refused with the valid key it was
// likely meant as; one near none is refused with the list alone.
func TestTypos(t *testing.T) {
	openai := []string{"base_url", "temperature", "seed", "max_tokens", "timeout", "api_key_env", "response_format"}
	const list = "; its options are api_key_env, base_url, max_tokens, response_format, seed, temperature, timeout"
	cases := []struct {
		opts  map[string]string
		known []string
		want  string
	}{
		{map[string]string{"temprature": "0"}, openai, `the demo judge has no option "temprature" (did you mean "temperature"?)` + list},
		{map[string]string{"temperture": "0"}, openai, `the demo judge has no option "temperture" (did you mean "temperature"?)` + list},
		{map[string]string{"timout": "9s"}, openai, `the demo judge has no option "timout" (did you mean "timeout"?)` + list},
		{map[string]string{"sede": "7"}, openai, `the demo judge has no option "sede" (did you mean "seed"?)` + list},
		{map[string]string{"max_token": "9"}, openai, `the demo judge has no option "max_token" (did you mean "max_tokens"?)` + list},
		{map[string]string{"maxTokens": "9"}, openai, `the demo judge has no option "maxTokens" (did you mean "max_tokens"?)` + list},
		{map[string]string{"base-url": "http://h"}, openai, `the demo judge has no option "base-url" (did you mean "base_url"?)` + list},
		{map[string]string{"BASE_URL": "http://h"}, openai, `the demo judge has no option "BASE_URL" (did you mean "base_url"?)` + list},
		{map[string]string{"api_key": "K"}, openai, `the demo judge has no option "api_key" (did you mean "api_key_env"?)` + list},
		{map[string]string{"format": "none"}, openai, `the demo judge has no option "format"` + list},
		{map[string]string{"colour": "x", "sead": "1"}, openai, `the demo judge has no options "colour", "sead" (did you mean "seed"?)` + list},
		{map[string]string{"anwsers": "a.jsonl"}, []string{"answers"}, `the demo judge has no option "anwsers" (did you mean "answers"?); its options are answers`},
		{map[string]string{"comand": "claude"}, []string{"cli_version", "command", "timeout"}, `the demo judge has no option "comand" (did you mean "command"?); its options are cli_version, command, timeout`},
		{map[string]string{"temperature": "0"}, nil, `the demo judge takes no options, not "temperature": leave it out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)`},
		{map[string]string{"b": "1", "a": "2"}, nil, `the demo judge takes no options, not "a", "b": leave them out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)`},
	}
	for _, c := range cases {
		_, err := NewOptions("demo", c.opts, c.known...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got  %v\n want %s", c.opts, err, c.want)
		}
	}
}

// TestBaseURLKeepsCredentialsOut: a base URL refused for its query or
// userinfo is quoted without the credentials in them.
func TestBaseURLKeepsCredentialsOut(t *testing.T) {
	cases := []struct {
		url, want string
	}{
		{"http://h/v1?key=k-111", `the demo judge's option base_url must be an http or https URL such as https://x/v1, not "http://h/v1?key=[redacted]"`},
		{"http://h/v1?api_key=k-111&x=1", `not "http://h/v1?api_key=[redacted]&x=1"`},
		{"ftp://u:k-111@h/v1", `not "ftp://u:[redacted]@h/v1"`},
		{"http://u:k-111@h/v1", "must not carry credentials: put the key in an environment variable and name it with --judge-option api_key_env=NAME (or in --judge demo:api_key_env=NAME)"},
		{"http://h/v1#token=k-111", `not "http://h/v1#token=[redacted]"`},
	}
	for _, c := range cases {
		o, err := NewOptions("demo", map[string]string{"base_url": c.url}, "base_url")
		if err != nil {
			t.Fatal(err)
		}
		_, err = o.BaseURL("base_url", "https://x/v1")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "k-111") {
			t.Errorf("%s: %v", c.url, err)
		}
	}
}

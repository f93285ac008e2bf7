// Package judgeopt reads a judge plugin's options (judge.Config.Options):
// it refuses a key the judge does not know, so a misspelt option is never
// silently ignored, and reads each value as a string, number, duration,
// URL or environment variable name, with an error that names the judge,
// the option, what it must be and how the user gives it (Setting).
package judgeopt

import (
	"fmt"
	"github.com/rubricmcp/rubric/internal/nearest"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rubricmcp/rubric/internal/redact"
)

// Options reads a judge's options (judge.Config.Options). Every value is a
// string; an empty value counts as not given.
type Options struct {
	judge string
	m     map[string]string
}

// NewOptions checks that every key in m is one of known and returns a
// reader for them. judgeName names the judge in messages ("openai"). An
// unknown key is refused, with the valid key nearest to it when one is
// near enough to be what was meant, and the list of the valid ones; a
// judge that knows none says it takes no options.
func NewOptions(judgeName string, m map[string]string, known ...string) (*Options, error) {
	var unknown []string
	for k := range m {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return &Options{judge: judgeName, m: m}, nil
	}
	slices.Sort(unknown)
	named := make([]string, len(unknown))
	for i, k := range unknown {
		named[i] = strconv.Quote(k)
		if near := nearest.Key(k, known); near != "" {
			named[i] += fmt.Sprintf(" (did you mean %q?)", near)
		}
	}
	if len(known) == 0 {
		them := "them"
		if len(unknown) == 1 {
			them = "it"
		}
		return nil, fmt.Errorf("the %s judge takes no options, not %s: leave %s out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)", judgeName, strings.Join(named, ", "), them)
	}
	what := "option"
	if len(unknown) > 1 {
		what = "options"
	}
	return nil, fmt.Errorf("the %s judge has no %s %s; its options are %s",
		judgeName, what, strings.Join(named, ", "), strings.Join(slices.Sorted(slices.Values(known)), ", "))
}

// errorf words a bad option value, and how the user gives it another:
// example stands for the value in the option's setting (see Setting).
func (o *Options) errorf(key, want, example, got string) error {
	return fmt.Errorf("the %s judge's option %s must be %s, not %q: give it with %s", o.judge, key, want, got, Setting(o.judge, key, example))
}

// Setting names the ways a user sets the option key of the built-in judge
// judgeName, with example standing for its value, for a message that
// tells them to change it: "--judge-option timeout=90s (or in --judge
// claude-cli:timeout=90s)". The base URL, which has a flag of its own, is
// named by that flag first. The key alone is spelt as no flag and no key
// of rubric.yaml.
func Setting(judgeName, key, example string) string {
	pair := key + "=" + example
	if key == "base_url" {
		return "--base-url (or " + pair + " in --judge-option or in --judge " + judgeName + ":" + pair + ")"
	}
	return "--judge-option " + pair + " (or in --judge " + judgeName + ":" + pair + ")"
}

// String returns the option's value, or def when it is not given.
func (o *Options) String(key, def string) string {
	if v := strings.TrimSpace(o.m[key]); v != "" {
		return v
	}
	return def
}

// OneOf returns the option's value, which must be one of allowed; def when
// it is not given.
func (o *Options) OneOf(key, def string, allowed ...string) (string, error) {
	v := o.String(key, def)
	if !slices.Contains(allowed, v) {
		example := "VALUE"
		if len(allowed) > 0 {
			example = allowed[0]
		}
		return "", o.errorf(key, "one of "+strings.Join(allowed, ", "), example, v)
	}
	return v, nil
}

// Float returns the option as a number from lo to hi, and whether it
// was given: a provider refuses a value outside the range it documents
// (a temperature of 9) only once the first question is asked, so it is
// refused here, with the range.
func (o *Options) Float(key string, lo, hi float64) (float64, bool, error) {
	s := o.String(key, "")
	if s == "" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi {
		return 0, false, o.errorf(key, fmt.Sprintf("a number from %g to %g", lo, hi), "N", s)
	}
	return f, true, nil
}

// Int returns the option as a whole number not below min (math.MinInt64
// for any), and whether it was given.
func (o *Options) Int(key string, min int64) (int64, bool, error) {
	s := o.String(key, "")
	if s == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < min {
		want := "a whole number"
		if min > math.MinInt64 {
			want = fmt.Sprintf("a whole number from %d", min)
		}
		return 0, false, o.errorf(key, want, "N", s)
	}
	return n, true, nil
}

// Duration returns the option as a positive Go duration ("90s", "2m"), or
// def when it is not given.
func (o *Options) Duration(key string, def time.Duration) (time.Duration, error) {
	s := o.String(key, "")
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, o.errorf(key, `a positive duration such as "90s" or "2m"`, "DURATION", s)
	}
	return d, nil
}

// BaseURL returns the option as an absolute http or https URL without a
// trailing slash, or def when it is not given.
func (o *Options) BaseURL(key, def string) (*url.URL, error) {
	s := o.String(key, def)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		// The URL is quoted without its credentials: a key put in its
		// query or userinfo would otherwise reach the terminal and
		// failed.json.
		return nil, o.errorf(key, "an http or https URL such as "+def, "URL", redact.URL(s))
	}
	if u.User != nil {
		return nil, fmt.Errorf("the %s judge's option %s must not carry credentials: put the key in an environment variable and name it with %s", o.judge, key, Setting(o.judge, "api_key_env", "NAME"))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// EnvName returns the option as the name of an environment variable, or
// def when it is not given. It refuses what cannot be a name, which is
// also what a key pasted in by mistake looks like, without echoing it.
func (o *Options) EnvName(key, def string) (string, error) {
	s := o.String(key, def)
	if !envName.MatchString(s) {
		return "", fmt.Errorf("the %s judge's option %s must name an environment variable (such as %s) that holds the key, not the key itself: give it with %s", o.judge, key, def, Setting(o.judge, key, "NAME"))
	}
	return s, nil
}

// Given says whether the option was given a value.
func (o *Options) Given(key string) bool { return o.String(key, "") != "" }

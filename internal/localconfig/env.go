package localconfig

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/rubricmcp/rubric/internal/hugepages"
)

// ZeroMeans is the annotation of a duration flag whose 0 means
// something ("no bound", "at once"): CheckEnv lets RUBRIC_NAME=0s by.
// Any other duration's 0 means nothing and is refused.
const ZeroMeans = "rubric/zero-means"

// AllowZero marks the duration flags names of fs as ones whose 0 means
// something (see ZeroMeans).
func AllowZero(fs *pflag.FlagSet, names ...string) {
	for _, n := range names {
		_ = fs.SetAnnotation(n, ZeroMeans, []string{"true"})
	}
}

// CheckEnv refuses a RUBRIC_NAME variable (as getenv reads it) that
// sets a flag of flags to a value viper would misread without a word:
// a whole number that is not one (RUBRIC_MAX_ROWS=abc was read as 0,
// every row), a bool that is not one (read as false), a number that is
// not one, or a duration without its unit (RUBRIC_JUDGE_TIMEOUT=600 was
// read as 600ns) or not above zero, or a list (see SplitList) that opens
// a double quote it never closes. The message names the variable, the
// value (where Blame would: see envSubject) and a good one. Strings, and types of a flag's own, are read by
// the command, which says what is wrong with them. An empty variable is
// unset, as viper reads it. RUBRIC_HUGEPAGES, which sets no flag, is
// checked too: on or off.
func CheckEnv(flags *pflag.FlagSet, getenv func(string) string) error {
	var err error
	// RUBRIC_HUGEPAGES sets no flag: a switch that any word but
	// the ones for off turned on.
	if val := getenv(hugepages.Env); val != "" {
		if !slices.Contains(switchWords, strings.ToLower(strings.TrimSpace(val))) {
			return fmt.Errorf("%s: it takes on or off (1 or 0, true or false, yes or no), such as %s=off to leave the heap without huge pages", envSubject(hugepages.Env, "bool", val), hugepages.Env)
		}
	}
	flags.VisitAll(func(f *pflag.Flag) {
		if err != nil {
			return
		}
		name := EnvName(f.Name)
		val := getenv(name)
		if val == "" {
			return
		}
		// viper reads the value as it is, spaces and all.
		if want, example := envValueWrong(f, val); want != "" {
			err = fmt.Errorf("%s: --%s takes %s, such as %s=%s", envSubject(name, f.Value.Type(), val), f.Name, want, name, example)
		}
	})
	return err
}

// envValueWrong says what the flag f takes and a good value, when s is
// not one; "" when it is.
func envValueWrong(f *pflag.Flag, s string) (want, example string) {
	switch f.Value.Type() {
	case "bool":
		if f.Name == "trust-local-config" {
			// Trusted reads it, with yes and no beside strconv's.
			if _, ok := trustValue(s); !ok {
				return "true or false", "1"
			}
			return "", ""
		}
		if _, err := strconv.ParseBool(s); err != nil {
			return "true or false", "true"
		}
	case "int", "int64", "int32":
		if _, err := strconv.ParseInt(s, 0, 0); err != nil {
			return "a whole number", goodOr(f, "10", func(d string) bool { _, err := strconv.ParseInt(d, 0, 0); return err == nil })
		}
	case "uint", "uint64", "uint32":
		if _, err := strconv.ParseUint(s, 0, 0); err != nil {
			return "a whole number not below 0", goodOr(f, "10", func(d string) bool { _, err := strconv.ParseUint(d, 0, 0); return err == nil })
		}
	case "float64", "float32":
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "a number", "0.50"
		}
	case "stringArray", "stringSlice":
		if unclosedQuote(s) {
			return "a list with each double quote closed", `"a b" c`
		}
	case "duration":
		zeroOK := f.Annotations[ZeroMeans] != nil
		good := func(v string) bool {
			d, err := time.ParseDuration(v)
			return err == nil && (d > 0 || d == 0 && zeroOK)
		}
		if !good(s) {
			want := "a duration with its unit, above zero"
			if zeroOK {
				want = "a duration with its unit, not below zero"
			}
			return want, goodOr(f, "10s", good)
		}
	}
	return "", ""
}

// goodOr is the default of f when good, else fallback.
func goodOr(f *pflag.Flag, fallback string, good func(string) bool) string {
	if f.DefValue != "" && good(f.DefValue) {
		return f.DefValue
	}
	return fallback
}

// switchWords are the values of a switch: hugepages reads the second
// half as off.
var switchWords = []string{"1", "on", "true", "yes", "0", "off", "false", "no"}

// trustValue reads a value of RUBRIC_TRUST_LOCAL_CONFIG; ok is false
// when it is none of the words for true or false.
func trustValue(s string) (trust, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "yes":
		return true, true
	case "0", "f", "false", "no":
		return false, true
	}
	return false, false
}

// envSubject names the variable name, which gave a flag of the type typ
// the value val, as the subject of a sentence, the way Blame and
// CheckEnv both begin their messages: "RUBRIC_MAX_ROWS (from the
// environment) is abc" for a number, a switch or a duration, which hold
// no secret and which a message about them may not quote (quoted when
// it holds a space or is empty, so that " 5" shows its space);
// "RUBRIC_SANDBOX_RO (from the environment)" for a string or a list,
// which may be a credential (a header, a URL's key).
func envSubject(name, typ, val string) string {
	switch typ {
	case "bool", "int", "int32", "int64", "uint", "uint32", "uint64", "float32", "float64", "duration":
		shown := val
		if val == "" || strings.ContainsFunc(val, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || !unicode.IsPrint(r) }) {
			shown = strconv.Quote(val)
		}
		return name + " (from the environment) is " + shown
	}
	return name + " (from the environment)"
}

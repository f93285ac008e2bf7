package localconfig

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/spf13/viper"
)

// List reads the list setting key the way its repeatable flag gives it:
// the flags' values as given, a config file's YAML list item by item,
// and a string (a RUBRIC_* variable, or a config value written as one
// string) cut by SplitList. viper's own GetStringSlice cuts a string at
// white space only, so RUBRIC_REDACT_PARAM=a,b named one parameter "a,b"
// and RUBRIC_JUDGE_OPTION=temperature=0,seed=7 set temperature to
// "0,seed=7".
func List(v *viper.Viper, key string) []string {
	switch x := v.Get(key).(type) {
	case nil:
		return nil
	case string:
		return SplitList(key, x)
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	default:
		return v.GetStringSlice(key)
	}
}

// SplitList cuts the string form of the list setting key into its
// items. Items are separated by commas or white space; double quotes
// keep a comma or a space inside an item (RUBRIC_SANDBOX_RO='"/opt/my
// tools",/srv'). Two keys differ, since their items hold commas of their
// own: a judge reference's settings are separated by commas
// (openai:model=M,base_url=URL), so calibrate's judges are separated by
// white space alone; and a piece of judge-option with no '=' after a
// comma belongs to the option before it (stop=a,b is one option, as it
// was when only white space separated).
func SplitList(key, s string) []string {
	commas := key != "judge"
	pairs := key == "judge-option"
	var (
		out        []string
		b          strings.Builder
		inQuote    bool
		afterComma bool // the item being read follows a comma
	)
	end := func(sep rune) {
		if b.Len() == 0 {
			afterComma = afterComma || sep == ','
			return
		}
		item := b.String()
		b.Reset()
		if pairs && afterComma && len(out) > 0 && !strings.Contains(item, "=") {
			out[len(out)-1] += "," + item
		} else {
			out = append(out, item)
		}
		afterComma = sep == ','
	}
	for _, r := range s {
		switch {
		case r == '"':
			inQuote = !inQuote
		case inQuote:
			b.WriteRune(r)
		case r == ',' && commas:
			end(r)
		case unicode.IsSpace(r):
			end(r)
		default:
			b.WriteRune(r)
		}
	}
	end(0)
	return out
}

// unclosedQuote says whether the string form s of a list opens a double
// quote it never closes; SplitList would read it to the end.
func unclosedQuote(s string) bool {
	return strings.Count(s, `"`)%2 == 1
}

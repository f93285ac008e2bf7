package localconfig

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// TestCheckEnv: a RUBRIC_* variable that viper would misread without a
// word (a number that is not one, a bool that is not one, a duration
// without its unit or not above zero) is refused, naming the variable,
// the value and a good one.
func TestCheckEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"nothing set", nil, ""},
		{"empty is unset", map[string]string{"RUBRIC_MAX_ROWS": ""}, ""},
		{"good values", map[string]string{"RUBRIC_MAX_ROWS": "5", "RUBRIC_PROGRESS": "false", "RUBRIC_JUDGE_TIMEOUT": "15m", "RUBRIC_MAX_COST": "0.25", "RUBRIC_FORMAT": "anything"}, ""},
		{"a count that is no number", map[string]string{"RUBRIC_MAX_ROWS": "abc"},
			`RUBRIC_MAX_ROWS (from the environment) is abc: --max-rows takes a whole number, such as RUBRIC_MAX_ROWS=40`},
		{"a count with spaces", map[string]string{"RUBRIC_MAX_ROWS": " 5"},
			`RUBRIC_MAX_ROWS (from the environment) is " 5": --max-rows takes a whole number, such as RUBRIC_MAX_ROWS=40`},
		{"a bool that is none", map[string]string{"RUBRIC_PROGRESS": "maybe"},
			`RUBRIC_PROGRESS (from the environment) is maybe: --progress takes true or false, such as RUBRIC_PROGRESS=true`},
		{"yes is no bool to viper", map[string]string{"RUBRIC_PROGRESS": "yes"},
			`RUBRIC_PROGRESS (from the environment) is yes: --progress takes true or false, such as RUBRIC_PROGRESS=true`},
		{"trust takes yes", map[string]string{"RUBRIC_TRUST_LOCAL_CONFIG": "yes"}, ""},
		{"trust that is none", map[string]string{"RUBRIC_TRUST_LOCAL_CONFIG": "sure"},
			`RUBRIC_TRUST_LOCAL_CONFIG (from the environment) is sure: --trust-local-config takes true or false, such as RUBRIC_TRUST_LOCAL_CONFIG=1`},
		{"a price that is no number", map[string]string{"RUBRIC_MAX_COST": "$1"},
			`RUBRIC_MAX_COST (from the environment) is $1: --max-cost takes a number, such as RUBRIC_MAX_COST=0.50`},
		{"a duration without its unit", map[string]string{"RUBRIC_JUDGE_TIMEOUT": "600"},
			`RUBRIC_JUDGE_TIMEOUT (from the environment) is 600: --judge-timeout takes a duration with its unit, above zero, such as RUBRIC_JUDGE_TIMEOUT=10m0s`},
		{"a duration that is none", map[string]string{"RUBRIC_START_TIMEOUT": "soon"},
			`RUBRIC_START_TIMEOUT (from the environment) is soon: --start-timeout takes a duration with its unit, above zero, such as RUBRIC_START_TIMEOUT=1m0s`},
		{"a duration of zero", map[string]string{"RUBRIC_START_TIMEOUT": "0s"},
			`RUBRIC_START_TIMEOUT (from the environment) is 0s: --start-timeout takes a duration with its unit, above zero, such as RUBRIC_START_TIMEOUT=1m0s`},
		{"a negative duration", map[string]string{"RUBRIC_START_TIMEOUT": "-1s"},
			`RUBRIC_START_TIMEOUT (from the environment) is -1s: --start-timeout takes a duration with its unit, above zero, such as RUBRIC_START_TIMEOUT=1m0s`},
		{"a zero that means something", map[string]string{"RUBRIC_TIMEOUT": "0"}, ""},
		{"a negative one where zero means something", map[string]string{"RUBRIC_TIMEOUT": "-5m"},
			`RUBRIC_TIMEOUT (from the environment) is -5m: --timeout takes a duration with its unit, not below zero, such as RUBRIC_TIMEOUT=5m0s`},
		{"a default that is no example", map[string]string{"RUBRIC_POLL": "1"},
			`RUBRIC_POLL (from the environment) is 1: --poll takes a duration with its unit, above zero, such as RUBRIC_POLL=10s`},
		{"huge pages off", map[string]string{"RUBRIC_HUGEPAGES": "Off"}, ""},
		{"huge pages on", map[string]string{"RUBRIC_HUGEPAGES": "1"}, ""},
		{"huge pages neither", map[string]string{"RUBRIC_HUGEPAGES": "disable"},
			`RUBRIC_HUGEPAGES (from the environment) is disable: it takes on or off (1 or 0, true or false, yes or no), such as RUBRIC_HUGEPAGES=off to leave the heap without huge pages`},
		{"a list", map[string]string{"RUBRIC_SANDBOX_RO": `"/opt/my tools",/srv`}, ""},
		{"a list's quote left open", map[string]string{"RUBRIC_SANDBOX_RO": `"/opt/my tools,/srv`},
			`RUBRIC_SANDBOX_RO (from the environment): --sandbox-ro takes a list with each double quote closed, such as RUBRIC_SANDBOX_RO="a b" c`},
		{"a flag the command lacks is not read", map[string]string{"RUBRIC_WORKERS": "many"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			fs.Int("max-rows", 40, "")
			fs.Bool("progress", true, "")
			fs.Bool("trust-local-config", false, "")
			fs.Float64("max-cost", 0, "")
			fs.String("format", "text", "")
			fs.Duration("judge-timeout", 10*time.Minute, "")
			fs.Duration("start-timeout", time.Minute, "")
			fs.Duration("timeout", 5*time.Minute, "")
			fs.Duration("poll", 0, "")
			fs.StringArray("sandbox-ro", nil, "")
			AllowZero(fs, "timeout")
			got := ""
			if err := CheckEnv(fs, func(name string) string { return tt.env[name] }); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

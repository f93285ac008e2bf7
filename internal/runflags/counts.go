package runflags

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// counts are the whole-number flags where 0 means "all" or "as many as
// the machine has" and a negative number means nothing: each with what
// its 0 and its numbers mean.
var counts = []struct{ name, zero, n string }{
	{"max-issues", "0 for every issue", "how many to show"},
	{"max-rows", "0 for every tool", "how many rows to show"},
	{"workers", "0 for one per CPU", "how many tools to score at once"},
}

// CheckCounts refuses a negative value, from a flag or the config file,
// of the flags in counts that cmd has: -1 rows was taken as no limit,
// and -2 workers as one per CPU, without a word.
func CheckCounts(v *viper.Viper, cmd *cobra.Command) error {
	for _, c := range counts {
		if cmd.Flags().Lookup(c.name) == nil {
			continue
		}
		if n := v.GetInt(c.name); n < 0 {
			return fmt.Errorf("--%s %d: give %s, or %s", c.name, n, c.zero, c.n)
		}
	}
	return nil
}

// durations are the flags of the plugin host's deadlines, where neither
// 0 nor a negative duration means anything: each with an example.
var durations = []struct{ name, example string }{
	{"plugin-start-timeout", "60s"},
	{"judge-timeout", "10m"},
	{"export-timeout", "10m"},
}

// CheckDurations refuses a duration of the flags in durations that cmd
// has, from a flag, the environment or the config file, that is not
// above zero: the host took it for its default without a word. A value
// from the environment without its unit (RUBRIC_JUDGE_TIMEOUT=600, read
// as 600 nanoseconds) is refused before, by localconfig.CheckEnv.
func CheckDurations(v *viper.Viper, cmd *cobra.Command) error {
	for _, d := range durations {
		if cmd.Flags().Lookup(d.name) == nil {
			continue
		}
		if t := v.GetDuration(d.name); t <= 0 {
			return fmt.Errorf("--%s %s: give a duration above zero, such as %s", d.name, v.GetString(d.name), d.example)
		}
	}
	return nil
}

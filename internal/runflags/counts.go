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

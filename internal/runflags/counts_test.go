package runflags

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func TestCheckCounts(t *testing.T) {
	tests := []struct {
		name  string
		flags []string // the flags the command has
		set   map[string]int
		want  string
	}{
		{"zero is all", []string{"max-rows", "max-issues", "workers"}, map[string]int{"max-rows": 0, "max-issues": 0, "workers": 0}, ""},
		{"positive", []string{"max-rows"}, map[string]int{"max-rows": 3}, ""},
		{"negative rows", []string{"max-rows"}, map[string]int{"max-rows": -1}, "--max-rows -1: give 0 for every tool, or how many rows to show"},
		{"negative issues", []string{"max-issues"}, map[string]int{"max-issues": -3}, "--max-issues -3: give 0 for every issue, or how many to show"},
		{"negative workers", []string{"workers"}, map[string]int{"workers": -2}, "--workers -2: give 0 for one per CPU, or how many tools to score at once"},
		{"a flag the command lacks is not read", []string{"workers"}, map[string]int{"max-rows": -1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := &cobra.Command{Use: "x"}
			for _, f := range tt.flags {
				cmd.Flags().Int(f, 0, "")
			}
			v := viper.New()
			for k, n := range tt.set {
				v.Set(k, n)
			}
			got := ""
			if err := CheckCounts(v, cmd); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

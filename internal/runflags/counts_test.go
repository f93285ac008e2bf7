package runflags

import (
	"testing"
	"time"

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

// TestCheckDurations: a deadline of the plugin host that is not above
// zero is refused. One from the environment without its unit, which
// viper reads as nanoseconds, is localconfig.CheckEnv's (TestCheckEnv).
func TestCheckDurations(t *testing.T) {
	tests := []struct {
		name string
		set  map[string]any
		want string
	}{
		{"the defaults", nil, ""},
		{"a flag's duration", map[string]any{"judge-timeout": 90 * time.Second}, ""},
		{"zero", map[string]any{"judge-timeout": time.Duration(0)}, "--judge-timeout 0s: give a duration above zero, such as 10m"},
		{"negative", map[string]any{"export-timeout": -time.Second}, "--export-timeout -1s: give a duration above zero, such as 10m"},
		{"from the environment, with its unit", map[string]any{"judge-timeout": "15m"}, ""},
		{"from the environment, zero", map[string]any{"export-timeout": "0s"}, "--export-timeout 0s: give a duration above zero, such as 10m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := &cobra.Command{Use: "x"}
			v := viper.New()
			for _, d := range durations {
				cmd.Flags().Duration(d.name, 10*time.Minute, "")
				v.SetDefault(d.name, 10*time.Minute)
			}
			for k, x := range tt.set {
				v.Set(k, x)
			}
			got := ""
			if err := CheckDurations(v, cmd); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCheckSARIFCategory: a category of nothing but slashes or spaces is
// refused (it gave the id "/"), and so is one given on the command line
// to a run that writes no SARIF, which ignored it; from the environment
// or a config file it stands for the runs that do write SARIF.
func TestCheckSARIFCategory(t *testing.T) {
	tests := []struct {
		name   string
		args   []string // the command line
		set    map[string]string
		format string
		want   string
	}{
		{"none", nil, nil, "text", ""},
		{"with --format sarif", []string{"--sarif-category", "mcp-tools"}, nil, "sarif", ""},
		{"with --sarif", []string{"--sarif-category", "mcp-tools", "--sarif", "r.sarif"}, nil, "text", ""},
		{"without SARIF", []string{"--sarif-category", "mcp-tools"}, nil, "json", "--sarif-category mcp-tools applies to SARIF, and this run writes none: add --sarif FILE (or --format sarif), or leave --sarif-category out"},
		{"without SARIF, from a config file or the environment", nil, map[string]string{"sarif-category": "mcp-tools"}, "text", ""},
		{"a slash", []string{"--sarif-category", "/", "--sarif", "r.sarif"}, nil, "text", `--sarif-category "/" names no category: give a name such as mcp-tools or rubric/tdqs, by which GitHub code scanning tells runs apart`},
		{"slashes and spaces", []string{"--sarif-category", " // "}, nil, "sarif", `--sarif-category " // " names no category: give a name such as mcp-tools or rubric/tdqs, by which GitHub code scanning tells runs apart`},
		{"a slash from a config file", nil, map[string]string{"sarif-category": "/"}, "text", `--sarif-category "/" names no category: give a name such as mcp-tools or rubric/tdqs, by which GitHub code scanning tells runs apart`},
		{"a category with parts", []string{"--sarif-category", "rubric/tdqs/"}, nil, "sarif", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := &cobra.Command{Use: "x"}
			cmd.Flags().String("sarif-category", "", "")
			cmd.Flags().String("sarif", "", "")
			if err := cmd.Flags().Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			v := viper.New()
			if err := v.BindPFlags(cmd.Flags()); err != nil {
				t.Fatal(err)
			}
			for k, x := range tt.set {
				v.SetDefault(k, x) // below the flags, as a file's value is
			}
			got := ""
			if err := CheckSARIFCategory(v, cmd.Flags(), tt.format); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

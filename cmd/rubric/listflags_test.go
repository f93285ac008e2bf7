package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/internal/localconfig"
)

// TestListFlagsFromEnvironment: every repeatable flag of every command
// reads a RUBRIC_* list as its own repeated flags would give it, commas
// separating items, or says why the environment does not set it. A new
// list flag fails here until it is given a row.
func TestListFlagsFromEnvironment(t *testing.T) {
	rows := map[string]struct {
		env  string
		want []string // nil: the environment does not set this flag
		why  string
	}{
		"redact-param": {env: "token2,sig2", want: []string{"token2", "sig2"}},
		"judge-option": {env: "temperature=0,stop=a,b", want: []string{"temperature=0", "stop=a,b"}},
		"sandbox-ro":   {env: `/opt/node,"/opt/my tools"`, want: []string{"/opt/node", "/opt/my tools"}},
		// A judge reference holds commas (openai:model=M,base_url=URL):
		// calibrate's two judges are separated by a space.
		"judge":  {env: "openai:model=M,base_url=U heuristic", want: []string{"openai:model=M,base_url=U", "heuristic"}},
		"header": {why: "RUBRIC_HEADER is read as NAME=VALUE lines, and the config file has headers:"},
		"env":    {why: "a spawned server's --env pairs come from the command line alone"},
		// scan's rubrics, as score's rubric, come from the
		// environment or the config when no flag names one.
		"rubric": {env: "schema-quality,rubrics/mine.hcl", want: []string{"schema-quality", "rubrics/mine.hcl"}},
	}
	a := &app{v: viper.New()}
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "stringArray" && f.Value.Type() != "stringSlice" {
				return
			}
			row, ok := rows[f.Name]
			if !ok {
				t.Errorf("%s --%s is a list: give it a row saying how RUBRIC_%s reads", cmd.CommandPath(), f.Name, f.Name)
				return
			}
			if row.want == nil {
				return
			}
			t.Setenv(localconfig.EnvName(f.Name), row.env)
			v := viper.New()
			v.SetEnvPrefix("RUBRIC")
			v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
			v.AutomaticEnv()
			if err := v.BindPFlags(cmd.Flags()); err != nil {
				t.Fatal(err)
			}
			if got := localconfig.List(v, f.Name); !slices.Equal(got, row.want) {
				t.Errorf("%s: %s=%s reads as %q, want %q", cmd.CommandPath(), localconfig.EnvName(f.Name), row.env, got, row.want)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(a.rootCmd())
}

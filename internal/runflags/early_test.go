package runflags

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// TestStartEarlyOnlyForOneTarget: no transport is started early for a
// run over --config-file or for a target not well given (the session
// says what is wrong, as before); closing none does nothing. A started
// one is what every score transcript reads through.
func TestStartEarlyOnlyForOneTarget(t *testing.T) {
	for _, args := range [][]string{
		{"--config-file", "mcp.json"},
		{"one.json", "two.json"},
		{},
		{"tools.json", "--", "server"},
	} {
		v := viper.New()
		var e *Early
		cmd := &cobra.Command{Use: "score", RunE: func(cmd *cobra.Command, args []string) error {
			e = Flags{Cmd: cmd, V: v}.StartEarly(Host{V: v}, args)
			return nil
		}}
		AddTarget(cmd)
		AddConfig(cmd)
		if err := v.BindPFlags(cmd.Flags()); err != nil {
			t.Fatal(err)
		}
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if e != nil {
			t.Errorf("%q: a transport was started early", args)
		}
		e.Close()
	}
}

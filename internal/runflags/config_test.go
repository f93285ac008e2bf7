package runflags

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// TestOneTargetRefuses: a configuration file says where each server is,
// so a target beside it, or a flag it already gives, is refused, and
// --server needs the file.
func TestOneTargetRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		err  string
	}{
		{name: "a target beside the file", args: []string{"--config-file", "mcp.json", "tools.json"}, err: "give either --config-file or a TARGET (or -- COMMAND), not both"},
		{name: "a command beside the file", args: []string{"--config-file", "mcp.json", "--", "server"}, err: "give either --config-file or a TARGET (or -- COMMAND), not both"},
		{name: "a flag the file gives", args: []string{"--config-file", "mcp.json", "--env", "A=1"}, err: "--env does not apply with --config-file"},
		{name: "--server without the file", args: []string{"--server", "github", "tools.json"}, err: "--server names a server of --config-file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := viper.New()
			var got error
			cmd := &cobra.Command{Use: "score", RunE: func(cmd *cobra.Command, args []string) error {
				_, _, _, got = Flags{Cmd: cmd, V: v}.OneTarget(args)
				return nil
			}}
			AddTarget(cmd)
			AddConfig(cmd)
			if err := v.BindPFlags(cmd.Flags()); err != nil {
				t.Fatal(err)
			}
			cmd.SetArgs(tc.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got == nil || !strings.Contains(got.Error(), tc.err) {
				t.Errorf("error %v, want %q", got, tc.err)
			}
		})
	}
}

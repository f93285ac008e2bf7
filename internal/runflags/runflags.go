// Package runflags declares the flags of the commands that read servers
// through engine/run (where a target is and how to reach it, which
// client configuration to read, who judges and how, where the reports
// go) and turns their values into what the engine takes: a
// transport.Target, the run.Server list of a configuration, run.Options
// and writers.Outputs.
//
// Values are read through viper, which merges each flag with its
// RUBRIC_* variable and the config file; a repeatable flag whose items
// may hold commas is read from the command's own flag set, since viper
// would split it there.
package runflags

import (
	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/internal/localconfig"
)

// Flags are the settings of one command as it runs.
type Flags struct {
	// Cmd is the command run, whose flags were parsed.
	Cmd *cobra.Command
	// V holds the settings: flags, environment and config file merged.
	V *viper.Viper
	// Local is the config file found in the working directory, when the
	// user has not said it is trusted (see internal/localconfig); nil
	// otherwise.
	Local *localconfig.Settings
}

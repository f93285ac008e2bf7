package localconfig

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
)

// LoadFlags sets up v for the command cmd from its flags and the RUBRIC_*
// environment alone, with no config file, and sets the read limit they
// give (SetMaxFileSize): for a command that reads no configuration.
func LoadFlags(v *viper.Viper, cmd *cobra.Command) error {
	v.SetEnvPrefix("RUBRIC")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	if err := v.BindPFlags(cmd.Flags()); err != nil {
		return err
	}
	return SetMaxFileSize(v)
}

// Load sets up v for the command cmd with the precedence flag > RUBRIC_*
// environment > config file > default: every flag of the command is
// bound under its own name, and the config file is --config, or else the
// one Search finds. It returns the settings to check when that file was
// found in the working directory and is not trusted (see Found), nil
// otherwise.
func Load(v *viper.Viper, cmd *cobra.Command) (*Settings, error) {
	// The config file is read under the limit of the flag or environment.
	if err := LoadFlags(v, cmd); err != nil {
		return nil, err
	}
	v.SetConfigType("yaml")
	// The flags' names are gathered only where a file is read: walking
	// every command's flags cost every run's start about 1% of its CPU.
	if path, _ := cmd.Flags().GetString("config"); path != "" {
		return nil, Read(v, path, FlagKeys(cmd))
	}
	path, user, local := Search()
	if path == "" {
		return nil, nil
	}
	if err := Read(v, path, FlagKeys(cmd)); err != nil {
		return nil, err
	}
	// A file in the working directory may not choose where a credential
	// goes, unless it is the user's own.
	if trust, _ := cmd.Flags().GetBool("trust-local-config"); local {
		return Found(v, cmd.Flags().Changed, path, user, trust), nil
	}
	return nil, nil
}

// SetMaxFileSize sets the limit of every file read whole from
// --max-file-size.
func SetMaxFileSize(v *viper.Viper) error {
	n, err := transport.ParseSize(v.GetString("max-file-size"))
	if err != nil {
		return fmt.Errorf("--max-file-size %w", err)
	}
	boundedread.SetLimit(n)
	return nil
}

// FlagKeys are the keys a config file may set, beside ConfigOnly: the
// names of the flags of every command, each with its type in cmd (the
// command run) when cmd has the flag, else its types in the commands
// that have it.
func FlagKeys(cmd *cobra.Command) Keys {
	keys := Keys{}
	var walk func(*cobra.Command)
	add := func(f *pflag.Flag) {
		if !slices.Contains(keys[f.Name], f.Value.Type()) {
			keys[f.Name] = append(keys[f.Name], f.Value.Type())
		}
	}
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd.Root())
	cmd.Flags().VisitAll(func(f *pflag.Flag) { keys[f.Name] = []string{f.Value.Type()} })
	return keys
}

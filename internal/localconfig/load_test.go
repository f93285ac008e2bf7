package localconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// TestLoad loads a command's settings from a config file named by
// --config or found in the working directory, as rubric's root command
// does before any command runs.
func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name      string
		file      string // the working directory's rubric.yaml; none when empty
		args      []string
		wantModel string
		wantLocal bool
		err       string
	}{
		{name: "no config file", args: []string{"sub"}, wantModel: "default"},
		{name: "a key of a subcommand's flag", file: "model: from-file\n", args: []string{"sub"}, wantModel: "from-file", wantLocal: true},
		{name: "the flag wins", file: "model: from-file\n", args: []string{"sub", "--model", "flag"}, wantModel: "flag", wantLocal: true},
		{name: "trusted", file: "model: from-file\n", args: []string{"sub", "--trust-local-config"}, wantModel: "from-file"},
		{name: "a typo", file: "modle: x\n", args: []string{"sub"}, err: `unknown key "modle" (did you mean "model"?)`},
		{name: "a map for a value", file: "judge:\n  model: x\n", args: []string{"sub"}, err: `rubric.yaml:1: judge is a map (model:), but it takes a single value (as --judge); model is a key of its own: write model: at the top level`},
		// other's --model is a list, but sub's is what is read.
		{name: "the command's own type", file: "model: [a]\n", args: []string{"sub"}, err: `rubric.yaml:1: model is a list of 1, but it takes a single value (as --model)`},
		{name: "another command's type", file: "list: [a]\n", args: []string{"sub"}, wantModel: "default", wantLocal: true},
		{name: "--config", args: []string{"sub", "--config", "other.yaml"}, wantModel: "other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
			t.Setenv("RUBRIC_TRUST_LOCAL_CONFIG", "")
			if tc.file != "" {
				if err := os.WriteFile("rubric.yaml", []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile("other.yaml", []byte("model: other\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			v := viper.New()
			var local *Settings
			var loadErr error
			sub := &cobra.Command{Use: "sub", RunE: func(cmd *cobra.Command, _ []string) error {
				local, loadErr = Load(v, cmd)
				return nil
			}}
			sub.Flags().String("model", "default", "")
			sub.Flags().String("judge", "", "")
			other := &cobra.Command{Use: "other"}
			other.Flags().StringArray("model", nil, "")
			other.Flags().StringArray("list", nil, "")
			root := loadRoot(sub, other)
			root.SetArgs(tc.args)
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			if tc.err != "" {
				if loadErr == nil || !strings.Contains(loadErr.Error(), tc.err) {
					t.Fatalf("error %v, want %q", loadErr, tc.err)
				}
				return
			}
			if loadErr != nil {
				t.Fatal(loadErr)
			}
			if got := v.GetString("model"); got != tc.wantModel {
				t.Errorf("model %q, want %q", got, tc.wantModel)
			}
			if (local != nil) != tc.wantLocal {
				t.Errorf("settings to check: %v, want %v", local != nil, tc.wantLocal)
			}
		})
	}
}

// loadRoot is a root command with the persistent flags Load reads
// (--config, --trust-local-config, --max-file-size), and subs under it.
func loadRoot(subs ...*cobra.Command) *cobra.Command {
	root := &cobra.Command{Use: "root", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().String("config", "", "")
	root.PersistentFlags().Bool("trust-local-config", false, "")
	root.PersistentFlags().String("max-file-size", "1MiB", "")
	root.AddCommand(subs...)
	return root
}

package localconfig

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// TestList: a list setting reads alike from its flag, the environment
// and a config file, whether the file writes a YAML list or one string:
// items separated by commas (or white space, as before), a quoted item
// kept whole; calibrate's judges, whose references hold commas, by
// white space alone; a judge option's value may hold a comma.
func TestList(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  string
		args []string // flags given
		env  string   // RUBRIC_<KEY>
		file string   // rubric.yaml
		want []string
	}{
		{name: "flag", key: "redact-param", args: []string{"--redact-param", "a", "--redact-param", "b"}, want: []string{"a", "b"}},
		{name: "flag keeps a comma", key: "redact-param", args: []string{"--redact-param", "a,b"}, want: []string{"a,b"}},
		{name: "env commas", key: "redact-param", env: "token2,sig2", want: []string{"token2", "sig2"}},
		{name: "env commas and spaces", key: "redact-param", env: " token2, sig2 ", want: []string{"token2", "sig2"}},
		{name: "env spaces, as before", key: "redact-param", env: "token2 sig2", want: []string{"token2", "sig2"}},
		{name: "env one", key: "redact-param", env: "token2", want: []string{"token2"}},
		{name: "env empty items", key: "redact-param", env: ",a,,b,", want: []string{"a", "b"}},
		{name: "file string", key: "redact-param", file: "redact-param: token2,sig2\n", want: []string{"token2", "sig2"}},
		{name: "file list", key: "redact-param", file: "redact-param: [token2, sig2]\n", want: []string{"token2", "sig2"}},
		{name: "file list keeps a comma", key: "redact-param", file: "redact-param: [\"a,b\"]\n", want: []string{"a,b"}},
		{name: "flag over env", key: "redact-param", args: []string{"--redact-param", "f"}, env: "e1,e2", want: []string{"f"}},
		{name: "env over file", key: "redact-param", env: "e1,e2", file: "redact-param: [x]\n", want: []string{"e1", "e2"}},
		{name: "unset", key: "redact-param", want: nil},

		{name: "options env commas", key: "judge-option", env: "temperature=0,seed=7", want: []string{"temperature=0", "seed=7"}},
		{name: "options env spaces, as before", key: "judge-option", env: "temperature=0 seed=7", want: []string{"temperature=0", "seed=7"}},
		{name: "an option's comma", key: "judge-option", env: "stop=a,b,seed=7", want: []string{"stop=a,b", "seed=7"}},
		{name: "an option's comma after a space", key: "judge-option", env: "stop=a, b", want: []string{"stop=a,b"}},
		{name: "an option quoted", key: "judge-option", env: `"system=be terse",seed=7`, want: []string{"system=be terse", "seed=7"}},
		{name: "a value quoted", key: "judge-option", env: `system="be terse"`, want: []string{"system=be terse"}},
		{name: "options file string", key: "judge-option", file: "judge-option: temperature=0,seed=7\n", want: []string{"temperature=0", "seed=7"}},
		{name: "options flag", key: "judge-option", args: []string{"--judge-option", "stop=a,b"}, want: []string{"stop=a,b"}},

		{name: "paths env commas", key: "sandbox-ro", env: "/opt/node,/srv", want: []string{"/opt/node", "/srv"}},
		{name: "a path quoted", key: "sandbox-ro", env: `"/opt/my tools",/srv`, want: []string{"/opt/my tools", "/srv"}},
		{name: "paths flag", key: "sandbox-ro", args: []string{"--sandbox-ro", "/opt/a,b"}, want: []string{"/opt/a,b"}},

		{name: "a judge with settings", key: "judge", env: "openai:model=M,base_url=http://h/v1", want: []string{"openai:model=M,base_url=http://h/v1"}},
		{name: "two judges, as before", key: "judge", env: "heuristic replay:answers=a.json", want: []string{"heuristic", "replay:answers=a.json"}},
		{name: "judge file string", key: "judge", file: "judge: openai:model=M,base_url=U\n", want: []string{"openai:model=M,base_url=U"}},
		{name: "judges file list", key: "judge", file: "judge: [heuristic, \"openai:model=M\"]\n", want: []string{"heuristic", "openai:model=M"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
			t.Setenv("RUBRIC_TRUST_LOCAL_CONFIG", "1")
			t.Setenv(EnvName(tc.key), tc.env)
			if tc.file != "" {
				if err := os.WriteFile("rubric.yaml", []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			v := viper.New()
			var got []string
			var loadErr error
			sub := &cobra.Command{Use: "sub", RunE: func(cmd *cobra.Command, _ []string) error {
				if _, loadErr = Load(v, cmd); loadErr == nil {
					got = List(v, tc.key)
				}
				return nil
			}}
			sub.Flags().StringArray(tc.key, nil, "")
			root := loadRoot(sub)
			root.SetArgs(append([]string{"sub"}, tc.args...))
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			if loadErr != nil {
				t.Fatal(loadErr)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("List(%q) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

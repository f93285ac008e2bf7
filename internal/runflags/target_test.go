package runflags

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/localconfig"
)

// TestTarget runs a command's flag parsing and config loading, then
// resolves the target, as a run would.
func TestTarget(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rubric.yaml")
	if err := os.WriteFile(cfg, []byte("headers:\n  Authorization: \"Bearer ${TEST_MCP_TOKEN}\"\n  X-Team: from-config\n  X-Env: from-config\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEST_MCP_TOKEN", "s3cret")
	// No user config file is read.
	t.Setenv("XDG_CONFIG_HOME", dir)
	for _, tc := range []struct {
		name      string
		args      []string
		envHeader string
		transport string
		want      transport.Target
		err       string
	}{
		{
			name:      "a URL, headers from config, environment and flags",
			args:      []string{"score", "--config", cfg, "--header", "X-Team=from-flag", "https://example.com/mcp"},
			envHeader: "X-Env=from-env\nX-Other=2",
			transport: "http",
			want: transport.Target{Location: "https://example.com/mcp", Headers: map[string]string{
				"Authorization": "Bearer s3cret", "X-Team": "from-flag", "X-Env": "from-env", "X-Other": "2",
			}},
		},
		{
			name:      "a command after --, with its environment, directory and limits",
			args:      []string{"score", "--env", "A=1", "--env", "B=x=y", "--cwd", "/srv", "--max-bytes", "1MiB", "--max-tools", "5", "--request-timeout", "2s", "--", "npx", "-y", "pkg"},
			transport: "stdio",
			want: transport.Target{Location: "npx", Args: []string{"-y", "pkg"}, Dir: "/srv", Env: map[string]string{"A": "1", "B": "x=y"},
				Limits: transport.Limits{MaxBytes: 1 << 20, MaxTools: 5, RequestTimeout: 2e9}},
		},
		{name: "a file", args: []string{"score", "tools.json"}, transport: "file", want: transport.Target{Location: "tools.json"}},
		{name: "an installed transport by scheme", args: []string{"score", "dir://./tools"}, transport: "dir", want: transport.Target{Location: "dir://./tools"}},
		{name: "sse chosen", args: []string{"score", "--transport", "sse", "http://h/sse"}, transport: "sse", want: transport.Target{Location: "http://h/sse"}},
		{
			name:      "curl's header form, with = in the value",
			args:      []string{"score", "--header", "Authorization: Bearer abc==", "--header", "X-A=b:c", "http://h"},
			transport: "http",
			want:      transport.Target{Location: "http://h", Headers: map[string]string{"Authorization": "Bearer abc==", "X-A": "b:c"}},
		},
		{name: "a bad pair", args: []string{"score", "--header", "X-A=1", "--header", "Authorization Bearer abcdefghijklmnop", "http://h"},
			err: `--header number 2 of 2 is not NAME=VALUE or NAME: VALUE (its text is not shown: it may hold a secret): give it as NAME=VALUE or NAME: VALUE`},
		{name: "an env pair is NAME=VALUE only", args: []string{"score", "--env", "TOKEN:1", "--", "x"}, err: `--env number 1 of 1 is not NAME=VALUE`},
		// A flag only one kind of target uses, given on the command line
		// for another kind, is refused, naming the flag and the transport.
		{name: "--env with a file", args: []string{"score", "--env", "A=1", "tools.json"},
			err: `--env applies to a server rubric starts (the command after --, run by the stdio transport), and tools.json is read by the file transport, which starts none: leave --env out, or give the command that starts the server after --`},
		{name: "--cwd with a URL", args: []string{"score", "--cwd", "/srv", "https://example.com/mcp"},
			err: `--cwd applies to a server rubric starts (the command after --, run by the stdio transport), and https://example.com/mcp is read by the http transport, which starts none`},
		{name: "--strict-stdout with sse", args: []string{"score", "--transport", "sse", "--strict-stdout", "http://h/sse"},
			err: `--strict-stdout applies to a server rubric starts (the command after --, run by the stdio transport), and http://h/sse is read by the sse transport, which starts none`},
		{name: "--cwd with a registry capture", args: []string{"score", "--cwd", "/srv", "registry://cap.json"},
			err: `--cwd applies to a server rubric starts (the command after --, run by the stdio transport), and registry://cap.json is read by the registry transport`},
		{name: "--follow-redirects with a command", args: []string{"score", "--follow-redirects", "--", "x"},
			err: `--follow-redirects applies to HTTP targets only (a URL, read by the http or sse transport), and the command after -- is read by the stdio transport, which follows no redirect: leave --follow-redirects out, or give the server's URL`},
		{name: "--follow-redirects with a file", args: []string{"score", "--follow-redirects", "tools.json"},
			err: `--follow-redirects applies to HTTP targets only (a URL, read by the http or sse transport), and tools.json is read by the file transport`},
		{name: "--header with a file", args: []string{"score", "--header", "X-A=1", "tools.json"},
			err: `--header applies to HTTP targets only (a URL, read by the http or sse transport), and tools.json is read by the file transport, which sends no header: leave --header out, or give the server's URL`},
		{name: "--follow-redirects with a URL", args: []string{"score", "--follow-redirects", "http://h"}, transport: "http",
			want: transport.Target{Location: "http://h", FollowRedirects: true}},
		{name: "--strict-stdout with a command", args: []string{"score", "--strict-stdout", "--", "x"}, transport: "stdio",
			want: transport.Target{Location: "x", Args: []string{}, StrictStdout: true}},
		{name: "--env with an installed transport", args: []string{"score", "--env", "A=1", "dir://./tools"}, transport: "dir",
			want: transport.Target{Location: "dir://./tools", Env: map[string]string{"A": "1"}}},
		{name: "a secret with no name", args: []string{"score", "--env", "=sk-7781", "--", "x"}, err: `--env number 1 of 1 is not NAME=VALUE`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("RUBRIC_HEADER", tc.envHeader)
			// A root command as rubric's: the config file is read by
			// localconfig.Load before the command resolves its target.
			v := viper.New()
			root := &cobra.Command{Use: "rubric", SilenceUsage: true, SilenceErrors: true}
			root.PersistentFlags().String("config", "", "")
			root.PersistentFlags().Bool("trust-local-config", false, "")
			root.PersistentFlags().String("max-file-size", "1MiB", "")
			score := &cobra.Command{Use: "score"}
			AddTarget(score)
			root.AddCommand(score)
			var gotName string
			var got transport.Target
			var gotErr error
			score.RunE = func(cmd *cobra.Command, args []string) error {
				local, err := localconfig.Load(v, cmd)
				if err != nil {
					return err
				}
				gotName, got, gotErr = Flags{Cmd: cmd, V: v, Local: local}.Target(args)
				return nil
			}
			root.SetArgs(tc.args)
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			if tc.err != "" {
				if gotErr == nil || !strings.Contains(gotErr.Error(), tc.err) {
					t.Fatalf("error %v, want %q", gotErr, tc.err)
				}
				// Not one character of a malformed item is shown.
				for _, frag := range []string{"Auth", "Bearer", "TOKEN", "sk-"} {
					if strings.Contains(gotErr.Error(), frag) {
						t.Errorf("the error %q shows %q", gotErr, frag)
					}
				}
				return
			}
			if gotErr != nil {
				t.Fatal(gotErr)
			}
			want := tc.want
			def := transport.Limits{StartTimeout: transport.DefaultStartTimeout, RequestTimeout: transport.DefaultRequestTimeout, MaxBytes: transport.DefaultMaxBytes, MaxTools: transport.DefaultMaxTools}
			if want.Limits.MaxBytes == 0 {
				want.Limits = def
			} else {
				want.Limits.StartTimeout = def.StartTimeout
			}
			if gotName != tc.transport || !reflect.DeepEqual(got, want) {
				t.Errorf("got %s %#v\nwant %s %#v", gotName, got, tc.transport, want)
			}
		})
	}
}

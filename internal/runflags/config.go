package runflags

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/clientconfig"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/rubrics"
)

// AddConfig declares the flags that read servers from a client's
// configuration file instead of a target.
func AddConfig(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("config-file", "", "read the servers of an MCP client's configuration (claude_desktop_config.json, .mcp.json, .cursor/mcp.json, .vscode/mcp.json)")
	f.String("server", "", "with --config-file, only the server of this name")
	f.String("config-format", "", "the client --config-file belongs to: claude-desktop, claude-code, cursor or vscode (default: from its name)")
	f.Int("server-concurrency", run.DefaultServers, "with --config-file, servers read at once")
}

// targetOnly are the flags that say where one target is, which a client
// configuration says for each of its servers.
var targetOnly = []string{"transport", "env", "header", "cwd"}

// ReadConfig reads --config-file, refusing a target beside it and the
// flags the configuration already gives.
func (fl Flags) ReadConfig(args []string) (*clientconfig.File, error) {
	cmd := fl.Cmd
	if len(args) > 0 || cmd.ArgsLenAtDash() >= 0 {
		return nil, fmt.Errorf("give either --config-file or a TARGET (or -- COMMAND), not both")
	}
	for _, name := range targetOnly {
		if cmd.Flags().Changed(name) {
			return nil, fmt.Errorf("--%s does not apply with --config-file: the configuration says how to start each server", name)
		}
	}
	format, err := clientconfig.ParseFormat(fl.V.GetString("config-format"))
	if err != nil {
		return nil, err
	}
	return clientconfig.Read(cmd.Context(), fl.V.GetString("config-file"), clientconfig.Options{Format: format})
}

// Servers are the configured servers as a run reads them, with the
// limits of the flags.
func (fl Flags) Servers(file *clientconfig.File) ([]run.Server, error) {
	// The flags' limits and switches, built as for a target.
	_, base, err := fl.Build("", nil)
	if err != nil {
		return nil, err
	}
	var out []run.Server
	for _, s := range file.Servers {
		t := s.Target
		t.Limits, t.StrictStdout, t.FollowRedirects = base.Limits, base.StrictStdout, base.FollowRedirects
		if s.Transport == "stdio" {
			t.Sandbox = base.Sandbox // every server the file has rubric start
		}
		out = append(out, run.Server{Name: s.Name, Source: run.Source{Transport: s.Transport, Target: t}, Err: s.Err})
	}
	return out, nil
}

// OneTarget is the one server a run reads: the one --server picks from
// --config-file, or else the TARGET (or -- COMMAND) of the arguments.
// secrets are the values a configured server's entry takes from the
// environment (clientconfig.Server.Secrets), or those a command line
// gives what its name says is a credential (redact.ArgSecrets), for the
// session to hide.
func (fl Flags) OneTarget(args []string) (name string, target transport.Target, secrets []string, err error) {
	if fl.V.GetString("config-file") == "" {
		if fl.V.GetString("server") != "" {
			return "", transport.Target{}, nil, fmt.Errorf("--server names a server of --config-file: give the configuration file too")
		}
		name, target, err = fl.Target(args)
		// A credential written on the command line, which no ${VAR}
		// marks as one, is hidden as a configuration's would be.
		return name, target, redact.ArgSecrets(append([]string{target.Location}, target.Args...)), err
	}
	file, err := fl.ReadConfig(args)
	if err != nil {
		return "", transport.Target{}, nil, err
	}
	s, err := file.Pick(fl.V.GetString("server"))
	if err != nil {
		return "", transport.Target{}, nil, err
	}
	if s.Err != nil {
		var pe *clientconfig.PosError
		if errors.As(s.Err, &pe) {
			return "", transport.Target{}, nil, s.Err // it names the file
		}
		return "", transport.Target{}, nil, fmt.Errorf("%s: %w", file.Path, s.Err)
	}
	servers, err := fl.Servers(&clientconfig.File{Path: file.Path, Servers: []clientconfig.Server{s}})
	if err != nil {
		return "", transport.Target{}, nil, err
	}
	return servers[0].Source.Transport, servers[0].Source.Target, s.Secrets, nil
}

// ConfigRun is what a run over every server of --config-file reads.
type ConfigRun struct {
	// File is the configuration; Servers its servers as a run reads
	// them (see Servers).
	File    *clientconfig.File
	Servers []run.Server
	// SetRubric is the rubric of the installed set (--set-rubric).
	SetRubric *rubric.Rubric
}

// ReadConfigRun reads --config-file and --set-rubric for a run that
// scores every server with r, refusing an output that is one of its
// inputs and the flags that take one server (--record, --answers).
func (fl Flags) ReadConfigRun(args []string, r *rubric.Rubric) (*ConfigRun, error) {
	v := fl.V
	file, err := fl.ReadConfig(args)
	if err != nil {
		return nil, err
	}
	setRubric, err := rubrics.FindContext(fl.Cmd.Context(), v.GetString("set-rubric"))
	if err != nil {
		return nil, fmt.Errorf("--set-rubric: %w", err)
	}
	servers, err := fl.Servers(file)
	if err != nil {
		return nil, err
	}
	inputs := []run.Flagged{{Flag: "--config-file", Path: file.Path}, {Flag: "--rubric", Path: r.File}, {Flag: "--set-rubric", Path: setRubric.File}, {Flag: "--config", Path: v.ConfigFileUsed()}}
	if err := run.CheckOutputs(inputs, ReportOutputs(v), run.Flagged{}); err != nil {
		return nil, err
	}
	if v.GetString("record") != "" || v.GetString("answers") != "" {
		return nil, fmt.Errorf("--record and --answers take one server: add --server NAME")
	}
	return &ConfigRun{File: file, Servers: servers, SetRubric: setRubric}, nil
}

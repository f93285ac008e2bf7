package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/clientconfig"
	"github.com/rubricmcp/rubric/engine/report/serverset"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/rubrics"
)

// defaultSetRubric scores the installed set of a client configuration.
const defaultSetRubric = "toolset"

// configFlags are the flags that read servers from a client's
// configuration file instead of a target.
func configFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("config-file", "", "read the servers of an MCP client's configuration (claude_desktop_config.json, .mcp.json, .cursor/mcp.json, .vscode/mcp.json)")
	f.String("server", "", "with --config-file, only the server of this name")
	f.String("config-format", "", "the client --config-file belongs to: claude-desktop, claude-code, cursor or vscode (default: from its name)")
	f.Int("server-concurrency", run.DefaultServers, "with --config-file, servers read at once")
}

// targetOnly are the flags that say where one target is, which a client
// configuration says for each of its servers.
var targetOnly = []string{"transport", "env", "header", "cwd"}

// readConfig reads --config-file, refusing a target beside it and the
// flags the configuration already gives.
func (a *app) readConfig(cmd *cobra.Command, args []string) (*clientconfig.File, error) {
	path := a.v.GetString("config-file")
	if len(args) > 0 || cmd.ArgsLenAtDash() >= 0 {
		return nil, fmt.Errorf("give either --config-file or a TARGET (or -- COMMAND), not both")
	}
	for _, name := range targetOnly {
		if cmd.Flags().Changed(name) {
			return nil, fmt.Errorf("--%s does not apply with --config-file: the configuration says how to start each server", name)
		}
	}
	format, err := clientconfig.ParseFormat(a.v.GetString("config-format"))
	if err != nil {
		return nil, err
	}
	return clientconfig.Read(cmd.Context(), path, clientconfig.Options{Format: format})
}

// configServers are the configured servers as a run reads them, with the
// limits of the flags.
func (a *app) configServers(cmd *cobra.Command, file *clientconfig.File) ([]run.Server, error) {
	// The flags' limits and switches, built as for a target.
	_, base, err := a.buildTarget(cmd, "", nil)
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

// oneTarget is the one server a run reads: the one --server picks from
// --config-file, or else the TARGET (or -- COMMAND) of the arguments.
func (a *app) oneTarget(cmd *cobra.Command, args []string) (string, transport.Target, error) {
	if a.v.GetString("config-file") == "" {
		if a.v.GetString("server") != "" {
			return "", transport.Target{}, fmt.Errorf("--server names a server of --config-file: give the configuration file too")
		}
		return a.resolveTarget(cmd, args)
	}
	file, err := a.readConfig(cmd, args)
	if err != nil {
		return "", transport.Target{}, err
	}
	s, err := file.Pick(a.v.GetString("server"))
	if err != nil {
		return "", transport.Target{}, err
	}
	if s.Err != nil {
		return "", transport.Target{}, fmt.Errorf("%s: %w", file.Path, s.Err)
	}
	servers, err := a.configServers(cmd, &clientconfig.File{Path: file.Path, Servers: []clientconfig.Server{s}})
	if err != nil {
		return "", transport.Target{}, err
	}
	return servers[0].Source.Transport, servers[0].Source.Target, nil
}

// runServers scores every server of --config-file with r, each its own
// report, and their installed set with --set-rubric; it writes one
// document (engine/report/serverset) and exits 2, naming them, when a
// server could not be scored.
func (a *app) runServers(cmd *cobra.Command, args []string, r *rubric.Rubric, threshold *rubric.Threshold, format writers.Writer) error {
	v := a.v
	file, err := a.readConfig(cmd, args)
	if err != nil {
		return err
	}
	setRubric, err := rubrics.Find(v.GetString("set-rubric"))
	if err != nil {
		return fmt.Errorf("--set-rubric: %w", err)
	}
	servers, err := a.configServers(cmd, file)
	if err != nil {
		return err
	}
	inputs := []run.Flagged{{Flag: "--config-file", Path: file.Path}, {Flag: "--rubric", Path: r.File}, {Flag: "--set-rubric", Path: setRubric.File}, {Flag: "--config", Path: v.ConfigFileUsed()}}
	if err := run.CheckOutputs(inputs, a.reportOutputs(), run.Flagged{}); err != nil {
		return err
	}
	if v.GetString("record") != "" || v.GetString("answers") != "" {
		return fmt.Errorf("--record and --answers take one server: add --server NAME")
	}
	sess, done, err := a.session(true)
	if err != nil {
		return err
	}
	defer done()
	doc, err := sess.ScanConfig(cmd.Context(), file.Path, servers, r, setRubric, run.ServersOptions{Concurrency: v.GetInt("server-concurrency")})
	if err != nil {
		return err
	}
	if err := a.writeServers(doc, format); err != nil {
		return err
	}
	if failed := doc.Failed(); len(failed) > 0 {
		return &exitError{code: exitInvalid, msg: fmt.Sprintf("%d of %d servers could not be scored: %s", len(failed), len(doc.Servers), strings.Join(failed, ", "))}
	}
	below := doc.Below(threshold)
	if len(below) > 0 {
		return &exitError{code: exitBelow, msg: strings.Join(below, "; ")}
	}
	return nil
}

// writeServers writes the document to --out or standard output in
// --format, then to each extra file (--json, --markdown, --sarif).
func (a *app) writeServers(doc *serverset.Document, format writers.Writer) error {
	o, opt := a.outputs(format)
	return serverset.WriteOutputs(a.stdout, doc, o, opt)
}

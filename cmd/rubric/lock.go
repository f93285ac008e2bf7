package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/runflags"
)

// lockCmds are rubric lock and rubric verify: pin the definitions the
// user approved, and say which changed since.
func (a *app) lockCmds() []*cobra.Command {
	lockCmd := &cobra.Command{
		Use:   "lock [flags] -- COMMAND [ARGS...] | TARGET | --config-file FILE",
		Short: "Write rubric.lock.json: the server's tools as approved, each with its hash and definition",
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runLock(cmd, args, false) },
	}
	verifyCmd := &cobra.Command{
		Use:   "verify [flags] -- COMMAND [ARGS...] | TARGET | --config-file FILE",
		Short: "Read the server again and name each tool added, removed or changed since rubric lock, with a diff: exit 0 unchanged, 1 changed, 2 unreadable",
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runLock(cmd, args, true) },
	}
	verifyCmd.Flags().String("markdown", "", "also write the verdict as Markdown to this file (for a CI job summary), an unreadable server's too")
	for _, c := range []*cobra.Command{lockCmd, verifyCmd} {
		c.Flags().String("lock-file", lock.DefaultFile, "the lock file")
		runflags.AddTarget(c)
		runflags.AddConfig(c)
	}
	return []*cobra.Command{lockCmd, verifyCmd}
}

func (a *app) runLock(cmd *cobra.Command, args []string, verify bool) error {
	path := a.v.GetString("lock-file")
	var locked *lock.File
	if verify {
		var err error
		if locked, err = lock.Read(path); err != nil {
			return err
		}
	}
	config, server := a.v.GetString("config-file"), a.v.GetString("server")
	if !verify && config != "" && server != "" {
		// Locking one server of a configuration over the lock of all of
		// them would drop the others' approvals without a word.
		if old, err := lock.Read(path); err == nil && len(old.Servers) > 0 {
			return fmt.Errorf("%s locks every server of %s, and locking %q alone would replace it with a lock of that one server: approve a change with %s (every server again), or write this server's own lock to another file with --lock-file FILE", path, old.Config, server, configApprove(config, path))
		}
	}
	switch {
	case config != "" && server == "":
		if verify && a.v.GetString("markdown") != "" {
			return fmt.Errorf("--markdown is for one server: verify a configuration's servers without it, or name one with --server")
		}
		return a.lockServers(cmd, args, path, locked)
	case locked != nil && len(locked.Servers) > 0 && config != "":
		// One server of a locked configuration is verified against its
		// entry in the configuration's lock.
		one, ok := locked.Find(server)
		if !ok {
			return fmt.Errorf("%s locks the servers of %s, and no server %q among them: verify them all without --server, or lock again with rubric lock --config-file %s --lock-file %s", path, locked.Config, server, config, path)
		}
		locked = one.Lock()
	case locked != nil && len(locked.Servers) > 0:
		return fmt.Errorf("%s locks the servers of %s: verify them with --config-file (and --server for one)", path, locked.Config)
	}
	tname, target, secrets, err := a.flags(cmd).OneTarget(args)
	if err != nil {
		return err
	}
	if err := a.checkLockOutputs(verify, run.Flagged{Flag: "the target", Path: target.Location}, run.Flagged{Flag: "--config-file", Path: config}); err != nil {
		return err
	}
	sess, done, err := a.session(false)
	if err != nil {
		return err
	}
	defer done()
	sess.Hide(secrets...)
	src := run.Source{Transport: tname, Target: target}
	if !verify {
		return sess.LockServer(cmd.Context(), src, path, a.stdout)
	}
	// One server of a configuration's lock is approved by locking the
	// configuration again, every server of it.
	approve, with := lock.Approve(path), " with the server's command or target"
	if config != "" {
		approve, with = configApprove(config, path), ""
	}
	changed, err := sess.VerifyServer(cmd.Context(), src, run.Verify{Lock: locked, File: path, Markdown: a.v.GetString("markdown"), Approve: approve}, a.stdout)
	if err == nil && changed > 0 {
		err = &exitError{code: 1, msg: fmt.Sprintf("%s from %s: if the change is meant, approve it: run %s%s, and commit %s", lock.Differ(changed), path, approve, with, path)}
	}
	return err
}

// lockServers locks every server of --config-file (locked is nil), or
// verifies each against the lock: a server added to or removed from the
// configuration is a change, and one that cannot be read makes the run
// exit 2, naming it, after the others are compared.
func (a *app) lockServers(cmd *cobra.Command, args []string, path string, locked *lock.File) error {
	file, err := a.flags(cmd).ReadConfig(args)
	if err != nil {
		return err
	}
	if locked != nil && len(locked.Servers) == 0 {
		return fmt.Errorf("%s locks one server, not a configuration's: verify it without --config-file, or lock again with --config-file", path)
	}
	if err := a.checkLockOutputs(locked != nil, run.Flagged{Flag: "--config-file", Path: file.Path}); err != nil {
		return err
	}
	servers, err := a.flags(cmd).Servers(file)
	if err != nil {
		return err
	}
	sess, done, err := a.session(false)
	if err != nil {
		return err
	}
	defer done()
	sess.Hide(file.Secrets()...)
	o := run.ServersOptions{Concurrency: a.v.GetInt("server-concurrency"), Disabled: file.Disabled}
	if locked == nil {
		return sess.LockServers(cmd.Context(), file.Path, servers, path, o, a.stdout, a.stderr)
	}
	changed, err := sess.VerifyServers(cmd.Context(), servers, locked, o, a.stdout)
	if err == nil && changed > 0 {
		err = &exitError{code: 1, msg: fmt.Sprintf("%s from %s: if the change is meant, approve it: run %s, and commit %s", serversDiffer(changed), path, configApprove(file.Path, path), path)}
	}
	return err
}

// checkLockOutputs refuses, before a server is read, a file rubric lock
// or verify would write over one it reads, as score refuses an output
// that is its target (run.CheckOutputs, which compares the files, not
// their names: a link to the target is the target): lock's --lock-file
// over the target or a configuration, verify's --markdown over those or
// the lock it verifies against. Written, the lock replaced the capture
// it locked, and the verdict the lock. inputs are the run's target and
// --config-file; --config and, for verify, --lock-file are added here.
func (a *app) checkLockOutputs(verify bool, inputs ...run.Flagged) error {
	path := a.v.GetString("lock-file")
	inputs = append(inputs, run.Flagged{Flag: "--config", Path: a.v.ConfigFileUsed()})
	outputs := []run.Flagged{{Flag: "--lock-file", Path: path}}
	if verify {
		inputs = append(inputs, run.Flagged{Flag: "--lock-file", Path: path})
		outputs = []run.Flagged{{Flag: "--markdown", Path: a.v.GetString("markdown")}}
	}
	return run.CheckOutputs(inputs, outputs, run.Flagged{})
}

// serversDiffer says how many servers differ from their lock: "1 server
// differs", "2 servers differ".
func serversDiffer(n int) string {
	if n == 1 {
		return "1 server differs"
	}
	return fmt.Sprintf("%d servers differ", n)
}

// configApprove is the command that locks the servers of the client
// configuration config again into the lock file path.
func configApprove(config, path string) string {
	return "rubric lock --config-file " + config + strings.TrimPrefix(lock.Approve(path), "rubric lock")
}

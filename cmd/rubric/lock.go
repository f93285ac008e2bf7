package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/lock"
)

// lockCmds are rubric lock and rubric verify: pin the definitions the
// user approved, and say which changed since.
func (a *app) lockCmds() []*cobra.Command {
	lockCmd := &cobra.Command{
		Use:   "lock [flags] -- COMMAND [ARGS...] | TARGET",
		Short: "Write rubric.lock.json: the server's tools as approved, each with its hash and definition",
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runLock(cmd, args, false) },
	}
	verifyCmd := &cobra.Command{
		Use:   "verify [flags] -- COMMAND [ARGS...] | TARGET",
		Short: "Read the server again and name each tool added, removed or changed since rubric lock, with a diff: exit 0 unchanged, 1 changed, 2 unreadable",
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runLock(cmd, args, true) },
	}
	for _, c := range []*cobra.Command{lockCmd, verifyCmd} {
		c.Flags().String("lock-file", lock.DefaultFile, "the lock file")
		targetFlags(c)
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
	tname, target, err := a.resolveTarget(cmd, args)
	if err != nil {
		return err
	}
	sess, done, err := a.session(false)
	if err != nil {
		return err
	}
	defer done()
	surf, err := sess.Export(cmd.Context(), tname, target)
	if err != nil {
		return err
	}
	if !verify {
		if err := lock.New(surf).Write(path); err != nil {
			return err
		}
		_, err := fmt.Fprintf(a.stdout, "locked %d tools in %s\n", len(surf.Tools), path)
		return err
	}
	changes, err := lock.Diff(locked, surf)
	if err == nil {
		err = lock.WriteText(a.stdout, changes)
	}
	if err != nil {
		return err
	} else if len(changes) > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d tools differ from %s", len(changes), path)}
	}
	return nil
}

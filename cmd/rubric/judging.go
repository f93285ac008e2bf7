package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// host starts this invocation's plugins: the built-ins and the config's.
func (a *app) host() runflags.Host {
	return runflags.Host{V: a.v, Local: a.local, TrustLocal: a.trustLocal, Builtins: builtins, Log: a.logger(), Early: a.early, Batches: a.batches, Hidden: &a.hidden, Guard: a.pluginGuard.vetFunc()}
}

// session starts the plugin host and a scan session of the command's
// flags; judging says the command has the judge flags. Closing it ends
// the judge and every plugin.
func (a *app) session(judging bool) (*run.Session, func(), error) {
	s, done, err := a.host().Session(judging, a.stderr)
	a.sess = s
	return s, done, err
}

// noteUnusedJudge says on standard error that the judge the command line
// named is not started, when r asks it nothing, and fails when no such
// judge is there. A judge from rubric.yaml or the environment goes
// unmentioned: it is meant for every rubric the config is used with, not
// for this one; but one that names no judge at all (a typo, a plugin
// path with no file) is refused, saying where it was set, as a misspelt
// key of the file is. Its options are checked either way
// (run.Session.CheckOptions): a misspelt one is refused as it is when the
// judge starts. The gate (sides) checks only those the command line or
// the environment gives: the repository's config file is read from each
// side, and the head's options take effect only once merged.
func (a *app) noteUnusedJudge(cmd *cobra.Command, sess *run.Session, r *rubric.Rubric, sides bool) error {
	if !cmd.Flags().Changed("judge") {
		if sides && !slices.ContainsFunc(judgeKeys, func(k string) bool {
			return k != "judge" && (cmd.Flags().Changed(k) || localconfig.EnvGives(k))
		}) {
			return nil
		}
		if !sides {
			if err := sess.CheckNamedJudge(); err != nil {
				return fmt.Errorf("%s sets judge %s: %w", localconfig.Origin(a.v, cmd.Flags(), "judge"), termtext.Printable(a.v.GetString("judge")), err)
			}
		}
		if err := sess.CheckOptions(r); err != nil {
			if localconfig.Origin(a.v, cmd.Flags(), "judge-option") != "" {
				// Named where the options were set (rubric.yaml's line,
				// or RUBRIC_JUDGE_OPTION), not as a flag never given.
				return &localconfig.ValueError{Key: "judge-option", Err: err}
			}
			return err
		}
		return nil
	}
	w, err := sess.UnusedJudge(r)
	if w != "" {
		// The engine says what to do; the command line says how.
		fmt.Fprintf(a.stderr, "rubric: %s with --rubric (rubric rubrics show NAME lists the questions a rubric asks)\n", w)
	}
	return err
}

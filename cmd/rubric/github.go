package main

import (
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/internal/ghaction"
)

// githubCmd holds the steps of rubric's GitHub Action that deserve more
// than a line of shell (see action.yml). They read the variables GitHub
// Actions sets for a step: GITHUB_EVENT_PATH, GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, GITHUB_API_URL, GITHUB_REPOSITORY and the
// GITHUB_TOKEN the action passes.
func (a *app) githubCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "github",
		Short: "Steps of the GitHub Action: read the event, write the job summary, keep the pull-request comment",
	}
	event := &cobra.Command{
		Use:   "event",
		Short: "Write the pull request's number and whether it comes from a fork to $GITHUB_OUTPUT",
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return ghaction.WriteEvent(ghaction.OSEnv(), a.stdout) },
	}
	summary := &cobra.Command{
		Use:   "summary [--note TEXT] FILE",
		Short: "Append a Markdown report to $GITHUB_STEP_SUMMARY, cut below GitHub's 1 MiB with a note saying so",
		Args:  oneArg("github summary", "the Markdown report to append"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return ghaction.WriteSummary(cmd.Context(), ghaction.OSEnv(), githubReport(cmd, args[0]), a.stderr)
		},
	}
	comment := &cobra.Command{
		Use:   "comment --key KEY [--note TEXT] FILE",
		Short: "Post a Markdown report as the pull request's rubric comment, or update the one posted before",
		Long:  help("github-comment"),
		Args:  oneArg("github comment", "the Markdown report to post"),
		RunE: func(cmd *cobra.Command, args []string) error {
			key, _ := cmd.Flags().GetString("key")
			author, _ := cmd.Flags().GetString("author")
			return ghaction.WriteComment(cmd.Context(), ghaction.OSEnv(), githubReport(cmd, args[0]), ghaction.Comment{Key: key, Author: author}, a.stdout)
		},
	}
	rubricStep := &cobra.Command{
		Use:   "rubric [--input NAME]",
		Short: "Write the rubric the Action uses to $GITHUB_OUTPUT: the input, else rubric.yaml's, else " + ghaction.DefaultRubric,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			input, _ := cmd.Flags().GetString("input")
			// No flag of this command is named rubric: viper has the
			// config file's rubric, or RUBRIC_RUBRIC's.
			return ghaction.WriteRubric(ghaction.OSEnv(), input, a.v.GetString("rubric"), a.stdout)
		},
	}
	rubricStep.Flags().String("input", "", "the Action's rubric input, which wins when set")
	// These steps read GitHub's variables alone: a rubric.yaml that
	// rubric refuses must not stop them, or the summary and the comment
	// could not say why the run did not score.
	for _, c := range []*cobra.Command{event, summary, comment} {
		c.Annotations = map[string]string{noConfigAnnotation: "true"}
	}
	for _, c := range []*cobra.Command{summary, comment} {
		c.Flags().String("note", "", "a paragraph put before the report")
		c.Flags().String("rest", "the full report is in the job's artifact", "where the whole report is, said when it has to be cut")
	}
	comment.Flags().String("key", "rubric", "which of rubric's comments this is: one comment per key")
	comment.Flags().String("author", ghaction.DefaultAuthor, "the login that wrote the comment to update (another token's user)")
	cmd.AddCommand(event, rubricStep, summary, comment)
	return cmd
}

// githubReport is the report at path with the flags --note and --rest.
func githubReport(cmd *cobra.Command, path string) ghaction.Report {
	note, _ := cmd.Flags().GetString("note")
	rest, _ := cmd.Flags().GetString("rest")
	return ghaction.Report{File: path, Note: note, Rest: rest}
}

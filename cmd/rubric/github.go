package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/internal/boundedread"
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
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			e, err := ghaction.ReadEvent(os.Getenv("GITHUB_EVENT_PATH"))
			if err != nil {
				return err
			}
			out := fmt.Sprintf("pull-request=%d\nfork=%t\n", e.PullRequest, e.Fork)
			fmt.Fprint(a.stdout, out)
			return appendFile("GITHUB_OUTPUT", out)
		},
	}
	summary := &cobra.Command{
		Use:   "summary [--note TEXT] FILE",
		Short: "Append a Markdown report to $GITHUB_STEP_SUMMARY, cut below GitHub's 1 MiB with a note saying so",
		Args:  oneArg("github summary", "the Markdown report to append"),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := githubText(cmd, args[0])
			if err != nil {
				return err
			}
			rest, _ := cmd.Flags().GetString("rest")
			cut, err := ghaction.AppendSummary(os.Getenv("GITHUB_STEP_SUMMARY"), text, rest)
			if err != nil {
				return err
			}
			if cut {
				fmt.Fprintf(a.stderr, "::warning::the job summary was cut to stay within GitHub's %s; %s\n", boundedread.Size(ghaction.SummaryLimit), rest)
			}
			return nil
		},
	}
	comment := &cobra.Command{
		Use:   "comment --key KEY [--note TEXT] FILE",
		Short: "Post a Markdown report as the pull request's rubric comment, or update the one posted before",
		Long: `Comment writes FILE as one comment on the pull request that started the
workflow, and on every later push updates that same comment: it is found
by a hidden first line that names --key, written by --author. Outside a
pull request, and on a pull request from a fork (whose token may not
write), it says so and writes nothing.

It reads GITHUB_TOKEN (the job needs permissions: pull-requests: write),
GITHUB_API_URL, GITHUB_REPOSITORY and GITHUB_EVENT_PATH.`,
		Args: oneArg("github comment", "the Markdown report to post"),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := ghaction.ReadEvent(os.Getenv("GITHUB_EVENT_PATH"))
			if err != nil {
				return err
			}
			switch {
			case e.PullRequest == 0:
				fmt.Fprintln(a.stdout, "not a pull request: no comment written")
				return nil
			case e.Fork:
				fmt.Fprintf(a.stdout, "::notice::pull request #%d comes from a fork, whose token may not write: no comment written (the report is in the job summary)\n", e.PullRequest)
				return nil
			}
			text, err := githubText(cmd, args[0])
			if err != nil {
				return err
			}
			key, _ := cmd.Flags().GetString("key")
			author, _ := cmd.Flags().GetString("author")
			rest, _ := cmd.Flags().GetString("rest")
			c := &ghaction.Client{API: os.Getenv("GITHUB_API_URL"), Token: os.Getenv("GITHUB_TOKEN"), Repo: os.Getenv("GITHUB_REPOSITORY"), Author: author}
			res, err := c.Upsert(cmd.Context(), e.PullRequest, key, ghaction.Body(key, string(text), rest))
			if err != nil {
				if cmd.Context().Err() != nil {
					return context.Cause(cmd.Context())
				}
				return err
			}
			verb := "updated"
			if res.Created {
				verb = "posted"
			}
			fmt.Fprintf(a.stdout, "%s comment %d on pull request #%d %s\n", verb, res.ID, e.PullRequest, res.URL)
			return nil
		},
	}
	for _, c := range []*cobra.Command{summary, comment} {
		c.Flags().String("note", "", "a paragraph put before the report")
		c.Flags().String("rest", "the full report is in the job's artifact", "where the whole report is, said when it has to be cut")
	}
	comment.Flags().String("key", "rubric", "which of rubric's comments this is: one comment per key")
	comment.Flags().String("author", ghaction.DefaultAuthor, "the login that wrote the comment to update (another token's user)")
	cmd.AddCommand(event, summary, comment)
	return cmd
}

// githubText is the report at path with --note before it.
func githubText(cmd *cobra.Command, path string) ([]byte, error) {
	b, err := boundedread.ReadFile(cmd.Context(), path, 0)
	if err != nil {
		return nil, err
	}
	if note, _ := cmd.Flags().GetString("note"); note != "" {
		b = append([]byte("> [!NOTE]\n> "+strings.ReplaceAll(strings.TrimSpace(note), "\n", "\n> ")+"\n\n"), b...)
	}
	return b, nil
}

// appendFile appends text to the file the environment variable name
// points at, as GitHub's step files are written.
func appendFile(name, text string) error {
	path := os.Getenv(name)
	if path == "" {
		return fmt.Errorf("%s is not set: run this inside a GitHub Actions step", name)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

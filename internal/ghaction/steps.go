package ghaction

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rubricmcp/rubric/internal/boundedread"
)

// Env is what a step reads of the variables GitHub Actions sets.
type Env struct {
	// EventPath is GITHUB_EVENT_PATH, the event that started the run.
	EventPath string
	// Output is GITHUB_OUTPUT, the step's outputs file.
	Output string
	// Summary is GITHUB_STEP_SUMMARY, the job summary file.
	Summary string
	// API, Token and Repo are GITHUB_API_URL, GITHUB_TOKEN and
	// GITHUB_REPOSITORY, for the REST API.
	API, Token, Repo string
}

// OSEnv is the Env of the running process.
func OSEnv() Env {
	return Env{
		EventPath: os.Getenv("GITHUB_EVENT_PATH"), Output: os.Getenv("GITHUB_OUTPUT"),
		Summary: os.Getenv("GITHUB_STEP_SUMMARY"), API: os.Getenv("GITHUB_API_URL"),
		Token: os.Getenv("GITHUB_TOKEN"), Repo: os.Getenv("GITHUB_REPOSITORY"),
	}
}

// Report is a Markdown report a step writes out.
type Report struct {
	// File is the report's path.
	File string
	// Note, when set, is a paragraph put before the report.
	Note string
	// Rest says where the whole report is, when it has to be cut.
	Rest string
}

// text is the report's file with its note before it.
func (r Report) text(ctx context.Context) ([]byte, error) {
	b, err := boundedread.ReadFile(ctx, r.File, 0)
	if err != nil {
		return nil, boundedread.Named(err, "report", r.File, "give the Markdown report a run of rubric wrote, such as .rubric/gate.md")
	}
	if r.Note != "" {
		b = append([]byte("> [!NOTE]\n> "+strings.ReplaceAll(strings.TrimSpace(r.Note), "\n", "\n> ")+"\n\n"), b...)
	}
	return b, nil
}

// WriteEvent writes the pull request's number and whether it comes from
// a fork, and for a merge queue's run the commit its group is merged
// onto (base), as step outputs, to stdout and appended to env.Output.
func WriteEvent(env Env, stdout io.Writer) error {
	e, err := ReadEvent(env.EventPath)
	if err != nil {
		return err
	}
	out := fmt.Sprintf("pull-request=%d\nfork=%t\n", e.PullRequest, e.Fork)
	if e.Base != "" {
		out += "base=" + e.Base + "\n"
	}
	return writeOutputs(env, out, stdout)
}

// writeOutputs writes out, lines of step outputs (name=value), to stdout
// and appends them to env.Output.
func writeOutputs(env Env, out string, stdout io.Writer) error {
	fmt.Fprint(stdout, out)
	if env.Output == "" {
		return fmt.Errorf("GITHUB_OUTPUT is not set: run this inside a GitHub Actions step")
	}
	f, err := os.OpenFile(env.Output, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.WriteString(out)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("write the step outputs to GITHUB_OUTPUT (%s): %s; GitHub Actions sets it to a file of the step's, so run this inside a step, or point it at a file that can be written", env.Output, boundedread.Reason(err))
	}
	return nil
}

// DefaultRubric is the rubric the Action scores with when neither its
// rubric input nor the repository's configuration names one.
const DefaultRubric = "tdqs"

// ChooseRubric says which rubric the Action uses: input, the rubric
// input, when it is set; else configured, the one rubric.yaml (or
// RUBRIC_RUBRIC) names, when there is one; else DefaultRubric. name is
// that rubric, for the answer cache's key and the comment's; flag is
// what to give --rubric, "" when the configuration chooses, so that
// rubric reads it as it does any setting of rubric.yaml (the gate then
// reads each side's, and scores both with the base's).
func ChooseRubric(input, configured string) (name, flag string) {
	switch {
	case input != "":
		return input, input
	case configured != "":
		return configured, ""
	}
	return DefaultRubric, DefaultRubric
}

// WriteRubric writes the rubric ChooseRubric chooses as the step
// outputs rubric (its name) and rubric-flag (what to give --rubric, if
// anything), to stdout and appended to env.Output.
func WriteRubric(env Env, input, configured string, stdout io.Writer) error {
	name, flag := ChooseRubric(input, configured)
	if strings.ContainsAny(name, "\r\n") {
		return fmt.Errorf("the rubric %q holds a line break: name a built-in rubric or the path of a .hcl file", name)
	}
	return writeOutputs(env, "rubric="+name+"\nrubric-flag="+flag+"\n", stdout)
}

// WriteSummary appends the report to env.Summary, cut below
// SummaryLimit; when it was cut it warns on stderr, in the workflow
// command GitHub shows as an annotation.
func WriteSummary(ctx context.Context, env Env, r Report, stderr io.Writer) error {
	text, err := r.text(ctx)
	if err != nil {
		return err
	}
	cut, err := AppendSummary(env.Summary, text, r.Rest)
	if err != nil {
		return err
	}
	if cut {
		fmt.Fprintf(stderr, "::warning::the job summary was cut to stay within GitHub's %s; %s\n", boundedread.Size(SummaryLimit), r.Rest)
	}
	return nil
}

// Comment says which comment WriteComment keeps.
type Comment struct {
	// Key names the comment: one comment per key.
	Key string
	// Author is the login that wrote the comment to update.
	Author string
}

// WriteComment posts the report as the pull request's comment c, or
// updates the one posted before, and says which on stdout. Outside a
// pull request, or on one from a fork (whose token may not write), it
// says so and writes nothing.
func WriteComment(ctx context.Context, env Env, r Report, c Comment, stdout io.Writer) error {
	e, err := ReadEvent(env.EventPath)
	if err != nil {
		return err
	}
	switch {
	case e.PullRequest == 0:
		fmt.Fprintln(stdout, "not a pull request: no comment written")
		return nil
	case e.Fork:
		fmt.Fprintf(stdout, "::notice::pull request #%d comes from a fork, whose token may not write: no comment written (the report is in the job summary)\n", e.PullRequest)
		return nil
	}
	text, err := r.text(ctx)
	if err != nil {
		return err
	}
	client := &Client{API: env.API, Token: env.Token, Repo: env.Repo, Author: c.Author}
	res, err := client.Upsert(ctx, e.PullRequest, c.Key, Body(c.Key, string(text), r.Rest))
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return err
	}
	verb := "updated"
	if res.Created {
		verb = "posted"
	}
	fmt.Fprintf(stdout, "%s comment %d on pull request #%d %s\n", verb, res.ID, e.PullRequest, res.URL)
	return nil
}

package ghaction

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/jsonpos"
)

// Event is what rubric needs of the event that started a workflow run.
type Event struct {
	// PullRequest is the pull request's number, or 0 for an event that
	// is not about one (a push, a schedule).
	PullRequest int
	// Fork says the pull request's head lives in another repository than
	// its base: GitHub gives such a run no secrets and a read-only token.
	Fork bool
	// Base is, for a merge queue's run (the merge_group event), the
	// commit the group is merged onto: the gate's base there, where
	// GITHUB_BASE_REF, which names a pull request's, is empty.
	Base string
}

// ReadEvent reads the event payload at path ($GITHUB_EVENT_PATH).
func ReadEvent(path string) (Event, error) {
	if path == "" {
		return Event{}, fmt.Errorf("GITHUB_EVENT_PATH is not set: run this inside a GitHub Actions step")
	}
	b, err := boundedread.ReadFile(context.Background(), path, 0)
	if err != nil {
		return Event{}, boundedread.Named(err, "event payload", path, "GITHUB_EVENT_PATH names the JSON file of the event that started the workflow run, which GitHub Actions writes")
	}
	var raw struct {
		PullRequest *struct {
			Number int `json:"number"`
			Head   struct {
				Repo *struct {
					FullName string `json:"full_name"`
					Fork     bool   `json:"fork"`
				} `json:"repo"`
			} `json:"head"`
			Base struct {
				Repo struct {
					FullName string `json:"full_name"`
				} `json:"repo"`
			} `json:"base"`
		} `json:"pull_request"`
		MergeGroup *struct {
			BaseSHA string `json:"base_sha"`
		} `json:"merge_group"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		de := jsonpos.Decoding(path, b, err)
		return Event{}, fmt.Errorf("event payload %s: %s (GITHUB_EVENT_PATH names the payload GitHub Actions writes for the event that started the run, and this is not one)", de.Where(), de.Msg)
	}
	var e Event
	if pr := raw.PullRequest; pr != nil {
		e.PullRequest = pr.Number
		// A head repository that was deleted is null: treat it as a fork,
		// since nothing says it is the base's own.
		head := pr.Head.Repo
		e.Fork = head == nil || head.Fork || head.FullName != pr.Base.Repo.FullName
	}
	if mg := raw.MergeGroup; mg != nil {
		e.Base = mg.BaseSHA
	}
	return e, nil
}

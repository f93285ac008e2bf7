package ask

import (
	"context"

	"github.com/rubricmcp/rubric/engine/judge"
)

// Limit is a rate limit that a judge's calls wait on before they start:
// a scan's workers share one (internal/jobqueue keeps its slots in the
// queue's database), so that a judge's requests per minute hold for the
// whole fleet, not for each process.
type Limit interface {
	// Wait returns once a call may start, or with ctx's error when ctx
	// ends first.
	Wait(ctx context.Context) error
}

// Paced is j with every call waiting on limit first: each question, each
// retry of an unreadable answer and each try after a rate limit takes a
// slot. A nil limit leaves j as it is.
func Paced(j Judge, limit Limit) Judge {
	if limit == nil {
		return j
	}
	return paced{j: j, limit: limit}
}

type paced struct {
	j     Judge
	limit Limit
}

func (p paced) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if err := p.limit.Wait(ctx); err != nil {
		return judge.Answer{}, err
	}
	return p.j.Ask(ctx, q)
}

package ask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// maxPromptBytes bounds a fetched prompt.
const maxPromptBytes = 1 << 20

// promptClient fetches prompts that rubrics name by URL.
var promptClient = &http.Client{Timeout: 30 * time.Second}

// ResolvePrompts fetches every prompt of r named by URL and sha256: from
// the cache when it holds it, else from the URL, keeping it in the cache
// (when there is one). A prompt whose text does not hash to its pin is
// refused. Call it before asking; it changes r's prompts in place.
func ResolvePrompts(ctx context.Context, r *rubric.Rubric, store *cache.Store) error {
	for _, q := range r.Questions {
		for _, p := range []*rubric.Prompt{q.System, q.User, q.Context} {
			if p == nil || !p.Remote() || p.Text != "" {
				continue
			}
			if store != nil {
				if text, ok := store.Prompt(p.SHA256); ok {
					if err := p.Resolve(text); err != nil {
						return fmt.Errorf("question %q: %w", q.Name, err)
					}
					continue
				}
			}
			text, err := fetch(ctx, p.URL)
			if err != nil {
				return fmt.Errorf("question %q: cannot fetch its prompt from %s: %w: %s", q.Name, p.URL, err, fetchAdvice(err, store))
			}
			if err := p.Resolve(text); err != nil {
				return fmt.Errorf("question %q: %w", q.Name, err)
			}
			if store != nil {
				if err := store.PutPrompt(p.SHA256, text); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// statusError is a prompt's URL answered with another status than 200.
type statusError struct{ status string }

func (e *statusError) Error() string { return "HTTP " + e.status }

// fetchAdvice says what to do about a prompt that could not be fetched:
// a URL that answers but not with the prompt is the rubric's to fix; one
// that cannot be reached is fetched once and then read from the cache,
// which may be one that already holds it.
func fetchAdvice(err error, store *cache.Store) string {
	if se := (*statusError)(nil); errors.As(err, &se) {
		return "check the url the rubric gives for this prompt (a published document moved or was removed: pin its new place and sha256)"
	}
	if store == nil {
		return "a prompt named by url is read from the network whenever there is no cache (--no-cache): run where that address can be reached, or without --no-cache, which keeps it once fetched"
	}
	return "a prompt named by url is fetched once and then read from the cache (rubric cache stats counts the prompts it holds): run once where that address can be reached, or point --cache-dir at a cache that holds it"
}

func fetch(ctx context.Context, target string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	resp, err := promptClient.Do(req)
	if err != nil {
		// Do's error repeats the method and the URL, which the
		// message already names.
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			return nil, ue.Err
		}
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &statusError{status: resp.Status}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxPromptBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxPromptBytes {
		return nil, fmt.Errorf("the prompt is larger than %d bytes", maxPromptBytes)
	}
	return b, nil
}

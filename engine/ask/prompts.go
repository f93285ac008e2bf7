package ask

import (
	"context"
	"fmt"
	"io"
	"net/http"
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
				return fmt.Errorf("question %q: fetch the prompt %s: %w", q.Name, p.URL, err)
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

func fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := promptClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
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

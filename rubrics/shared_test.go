package rubrics_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// ownBytes is a judge that answers as the heuristic does and keeps, for
// each question, the size of what is its own (its input and its own
// prompts) and the shared values it was sent.
type ownBytes struct {
	*heuristic.Judge
	mu     sync.Mutex
	own    map[string]int
	shared map[string]bool
}

func (o *ownBytes) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	o.mu.Lock()
	o.own[q.Kind+"/"+q.Subject] = len(q.Input) + len(q.System) + len(q.User)
	if q.SharedHash != "" {
		o.shared[q.Kind+" "+q.SharedHash] = true
	}
	o.mu.Unlock()
	return o.Judge.Ask(ctx, q)
}

// manyTools is a surface of n tools, each with a description that names
// what it does.
func manyTools(t *testing.T, n int) *surface.Surface {
	t.Helper()
	tools := make([]map[string]any, n)
	for i := range tools {
		tools[i] = map[string]any{
			"name":        fmt.Sprintf("get_item_%03d", i),
			"description": fmt.Sprintf("Returns item %d of the store by its id, with its price and stock. Use list_items to find ids.", i),
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string", "description": "The item's id."}}, "required": []string{"id"}},
		}
	}
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	return parseSurface(t, "many.json", b)
}

// TestJudgedQuestionsCarryOnlyTheirOwn: under TDQS and Gradable, what each
// question carries of its own (input and prompts) does not grow with the
// number of tools; the tool names (TDQS) and the tool list (each Gradable
// selection run) are sent as one shared value a run. So a run's questions
// cost tools x questions, not the square of the tool count.
func TestJudgedQuestionsCarryOnlyTheirOwn(t *testing.T) {
	heavytest.Later(t)
	for _, tt := range []struct {
		rubric, kind, subject string
		sharedValues          int
	}{
		{"tdqs", "tdqs.tool", "get_item_000", 1},
		{"gradable", "gradable.selection", "task 1", 1},
	} {
		t.Run(tt.rubric, func(t *testing.T) {
			r := builtin(t, tt.rubric)
			var sizes []int
			for _, n := range []int{10, 40} {
				j := &ownBytes{Judge: heuristic.New(), own: map[string]int{}, shared: map[string]bool{}}
				id, err := j.Configure(context.Background(), judge.Config{})
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := scoreWith(r, manyTools(t, n), j, id); err != nil {
					t.Fatal(err)
				}
				size, ok := j.own[tt.kind+"/"+tt.subject]
				if !ok {
					t.Fatalf("%d tools: no %s question about %s (asked %v)", n, tt.kind, tt.subject, j.own)
				}
				sizes = append(sizes, size)
				shared := 0
				for k := range j.shared {
					if len(k) > len(tt.kind) && k[:len(tt.kind)] == tt.kind {
						shared++
					}
				}
				if shared < tt.sharedValues {
					t.Errorf("%d tools: %d shared values for %s, want at least %d", n, shared, tt.kind, tt.sharedValues)
				}
			}
			if sizes[0] != sizes[1] {
				t.Errorf("the %s question about %s carries %d bytes of its own with 10 tools and %d with 40: it grows with the tools", tt.kind, tt.subject, sizes[0], sizes[1])
			}
		})
	}
}

package gradable

import (
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/internal/schemasize"
)

// TestCheckerOfALargeSchema: a tool's inputSchema of more objects than
// schemasize.MaxObjects gets no checker (compiling it would cost the
// square of its objects; with none, every argument is accepted and the
// rubric judges them), and one at the bound gets one that still refuses
// an argument of the wrong type.
func TestCheckerOfALargeSchema(t *testing.T) {
	schema := func(objects int) map[string]any {
		// The root, its properties, and objects-2 properties' schemas.
		props := map[string]any{}
		for i := range objects - 2 {
			props[fmt.Sprint("p", i)] = map[string]any{"type": "string"}
		}
		return map[string]any{"type": "object", "properties": props}
	}
	if c := newChecker(schema(schemasize.MaxObjects + 1)); c != nil {
		t.Errorf("a schema of %d objects got a checker", schemasize.MaxObjects+1)
	}
	c := newChecker(schema(schemasize.MaxObjects))
	if c == nil {
		t.Fatalf("a schema of %d objects got no checker", schemasize.MaxObjects)
	}
	if got := c.failing(map[string]any{"p0": 1}); !got["p0"] {
		t.Errorf("p0 = 1 against a string: failing %v, want p0", got)
	}
}

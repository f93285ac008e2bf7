// Package schemasize bounds the JSON Schemas rubric compiles. The
// validator rubric uses (santhosh-tekuri/jsonschema) keeps the subschemas
// it has still to compile in a list it searches from the start for each
// one it adds, so compiling a schema costs the square of its subschemas:
// a tool whose inputSchema has 25,000 properties took seconds, and a
// 64 MiB one (the default --max-bytes) hours. No tool of the corpus
// comes near the bound (its largest inputSchema holds 91 objects).
//
// Every object and boolean counts, wherever it stands: a subschema is an
// object or a boolean (true and false are schemas too), and a value
// (an enum's, a default) can be made one by a $ref that points into it,
// so telling the two apart would take resolving every reference first.
package schemasize

// MaxObjects is the most JSON objects and booleans a schema may hold for
// rubric to compile it.
const MaxObjects = 10_000

// TooLarge reports whether doc, a schema decoded from JSON (maps, lists
// and scalars), holds more than MaxObjects objects and booleans. It
// stops counting there, and walks without recursion, so a schema nested
// deep or wide costs at most that.
func TooLarge(doc any) bool {
	count := 0
	stack := []any{doc}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := v.(type) {
		case map[string]any:
			if count++; count > MaxObjects {
				return true
			}
			for _, m := range v {
				stack = append(stack, m)
			}
		case bool:
			if count++; count > MaxObjects {
				return true
			}
		case []any:
			stack = append(stack, v...)
		}
	}
	return false
}

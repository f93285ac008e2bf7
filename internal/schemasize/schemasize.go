// Package schemasize bounds the JSON Schemas rubric compiles. The
// validator rubric uses (santhosh-tekuri/jsonschema) keeps the subschemas
// it has still to compile in a list it searches from the start for each
// one it adds, so compiling a schema costs the square of its subschemas:
// a tool whose inputSchema has 25,000 properties took seconds, and a
// 64 MiB one (the default --max-bytes) hours. No tool of the corpus
// comes near the bound (its largest inputSchema holds 91 objects).
package schemasize

// MaxObjects is the most JSON objects a schema may hold for rubric to
// compile it.
const MaxObjects = 10_000

// TooLarge reports whether doc, a schema decoded from JSON (maps, lists
// and scalars), holds more than MaxObjects objects. It stops counting
// there, and walks without recursion, so a schema nested deep or wide
// costs at most that.
func TooLarge(doc any) bool {
	objects := 0
	stack := []any{doc}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := v.(type) {
		case map[string]any:
			if objects++; objects > MaxObjects {
				return true
			}
			for _, m := range v {
				stack = append(stack, m)
			}
		case []any:
			stack = append(stack, v...)
		}
	}
	return false
}

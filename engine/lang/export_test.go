package lang

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// NewCountingEnv is NewEnv with one more function, counted(x), which
// yields x and adds one to *n: a test sees how often an expression that
// calls it is computed.
func NewCountingEnv(n *int, vars ...Var) (*Env, error) {
	counted := cel.Function("counted", cel.Overload("counted_dyn", []*cel.Type{cel.DynType}, cel.DynType,
		cel.UnaryBinding(func(v ref.Val) ref.Val {
			*n++
			return v
		})))
	return newEnv([]cel.EnvOption{counted}, vars...)
}

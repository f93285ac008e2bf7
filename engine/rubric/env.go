package rubric

import (
	"sync"

	"github.com/google/cel-go/cel"

	"github.com/rubricmcp/rubric/engine/lang"
)

// The variables each kind of formula sees.
var (
	// CheckVars: a check's each and pass see the tool; pass and label see the
	// item when the check has each.
	CheckVars = []lang.Var{{Name: "tool", Type: lang.Object}, {Name: "item", Type: lang.Dyn}}
	// ToolVars: tool formulas see the definition, the checks' results (as a
	// list in order and as a map by name) and the tool's metrics.
	ToolVars = []lang.Var{
		{Name: "tool", Type: lang.Object},
		{Name: "checks", Type: lang.Objects},
		{Name: "check", Type: cel.MapType(cel.StringType, lang.Object)},
		{Name: "metrics", Type: lang.Object},
	}
	// SurfaceVars: surface formulas see every tool's results and the
	// surface's metrics.
	SurfaceVars = []lang.Var{
		{Name: "tools", Type: lang.Objects},
		{Name: "metrics", Type: lang.Object},
	}
)

type envs struct {
	check, tool, surface *lang.Env
	err                  error
}

var (
	envOnce sync.Once
	shared  envs
)

// environments builds the three formula environments once per process.
func environments() (envs, error) {
	envOnce.Do(func() {
		if shared.check, shared.err = lang.NewEnv(CheckVars...); shared.err != nil {
			return
		}
		if shared.tool, shared.err = lang.NewEnv(ToolVars...); shared.err != nil {
			return
		}
		shared.surface, shared.err = lang.NewEnv(SurfaceVars...)
	})
	return shared, shared.err
}

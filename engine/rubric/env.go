package rubric

import (
	"crypto/sha256"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"

	"github.com/rubricmcp/rubric/engine/lang"
)

// The variables each kind of formula sees. A formula that names a variable
// its stage does not have yet (an answer in a signal, say) is a type error
// when the rubric loads.
var (
	// CheckVars: a check's each and pass see the tool; pass and label see the
	// item when the check has each.
	CheckVars = []lang.Var{{Name: "tool", Type: lang.Tool}, {Name: "item", Type: lang.Dyn}}
	// MessageVars: an issue written cel("...") sees the tool and items,
	// the labels of the items that failed (empty without each).
	MessageVars = []lang.Var{{Name: "tool", Type: lang.Tool}, {Name: "items", Type: cel.ListType(cel.StringType)}}
	// SignalVars: signals, and the when and input of questions per tool,
	// see the definition, the checks' results, the whole surface (its
	// tools' definitions and the server's information) and the signals
	// before them.
	SignalVars = []lang.Var{
		{Name: "tool", Type: lang.Tool},
		{Name: "checks", Type: lang.Objects},
		{Name: "check", Type: cel.MapType(cel.StringType, lang.Object)},
		{Name: "surface", Type: lang.Object},
		{Name: "signals", Type: lang.Object},
		surfaceSignalsVar,
	}
	// ToolVars: tool metrics, score and issues see what signals see, the
	// tool's answers (by question name; null for a question not asked) and
	// the tool's metrics.
	// The surface's answers (surface_answers, by question name; null for
	// a question not asked) are asked before any tool is scored, so tool
	// formulas see them too: a finding about the whole set that names a
	// tool (a shadowed tool, say) is written into that tool's entry.
	ToolVars = append(append([]lang.Var{}, SignalVars...),
		lang.Var{Name: "answers", Type: lang.Object},
		lang.Var{Name: "surface_answers", Type: lang.Object},
		lang.Var{Name: "metrics", Type: lang.Object},
		gradesVar,
	)
	// ToolReportVars: a tool's report fields also see its score and grade.
	ToolReportVars = append(append([]lang.Var{}, ToolVars...), scoreVars...)
	// SurfaceQuestionVars: the when and input of questions about the whole
	// surface see the surface, the surface's answers so far, and each
	// tool's answers by tool name, then question name (tool_answers).
	SurfaceQuestionVars = []lang.Var{
		{Name: "surface", Type: lang.Object},
		{Name: "answers", Type: lang.Object},
		{Name: "tool_answers", Type: lang.Object},
		surfaceSignalsVar,
	}
	// ItemVars: the when, input and subject of a question per item also
	// see the item and its 0-based index.
	ItemVars = append(append([]lang.Var{}, SurfaceQuestionVars...),
		lang.Var{Name: "item", Type: lang.Dyn}, lang.Var{Name: "index", Type: cel.IntType})
	// SurfaceVars: surface formulas see every tool's results, the surface,
	// the surface's answers, what each answer cost (usage: by question,
	// then by tool name, a list by item, or one entry, each
	// {'tokens': n, 'estimated': bool}) and the surface's metrics.
	SurfaceVars = []lang.Var{
		{Name: "tools", Type: lang.Objects},
		{Name: "surface", Type: lang.Object},
		surfaceSignalsVar,
		{Name: "answers", Type: lang.Object},
		{Name: "usage", Type: lang.Object},
		{Name: "metrics", Type: lang.Object},
		gradesVar,
	}
	// SurfaceReportVars: the surface's report values also see the overall
	// score and grade (null when there is none).
	SurfaceReportVars = append(append([]lang.Var{}, SurfaceVars...), scoreVars...)

	// SurfaceSignalVars: the surface's signals, computed once a run before
	// any tool's checks, see the surface and the surface signals before
	// them; every formula but a check's sees them as surface_signals.NAME.
	// A fact of the whole surface (the tools' names) is computed there
	// once, instead of once for every tool.
	SurfaceSignalVars = []lang.Var{{Name: "surface", Type: lang.Object}, surfaceSignalsVar}

	surfaceSignalsVar = lang.Var{Name: "surface_signals", Type: lang.Object}
	// gradesVar is the rubric's grades as a map of letter to minimum, for
	// band(x, grades): the grade of any value, not only of the score.
	gradesVar = lang.Var{Name: "grades", Type: lang.Object}
	scoreVars = []lang.Var{{Name: "score", Type: lang.Dyn}, {Name: "grade", Type: lang.Dyn}}

	// WeightsVar is the rubric's weights, name to number, which every
	// formula sees: their values are fixed when the rubric loads. A whole
	// weight is an int and any other a num, as literals are.
	WeightsVar = lang.Var{Name: "weights", Type: lang.Object}
)

type envs struct {
	check, message, signal, tool, toolReport, surfaceQuestion, item, surface, surfaceReport, surfaceSignal *lang.Env
}

var (
	envOnce   sync.Once
	shared    envs
	sharedErr error
)

// Background, when set, runs f on a goroutine of its own: a loader
// then makes there, while it parses a rubric's text, what it needs made
// before it compiles the rubric's formulas (the environments, the
// language's stamp, the syntax trees of the formulas compiled ahead of
// time from the same text: lang.Ahead). Nil, a loader makes them itself
// as it needs them. Package rubrics sets it.
var Background func(f func())

// prepared says the environments and the stamp are being made.
var prepared atomic.Bool

// prepare begins the load of the rubric text src: its formulas are the
// language's group of src's hash (lang.Begin), which Background decodes
// ahead, with the environments and the stamp a process's first load
// makes.
func prepare(src []byte) {
	sum := sha256.Sum256(src)
	id := string(sum[:])
	lang.Begin(id)
	if Background == nil {
		return
	}
	if !prepared.Swap(true) {
		Background(func() { _, _ = environments() })
		Background(lang.Prepare)
	}
	Background(func() { lang.Ahead(id) })
}

// environments builds the formula environments once per process.
func environments() (envs, error) {
	envOnce.Do(func() {
		for _, e := range []struct {
			env  **lang.Env
			vars []lang.Var
		}{
			{&shared.check, CheckVars},
			{&shared.message, MessageVars},
			{&shared.signal, SignalVars},
			{&shared.tool, ToolVars},
			{&shared.toolReport, ToolReportVars},
			{&shared.surfaceQuestion, SurfaceQuestionVars},
			{&shared.item, ItemVars},
			{&shared.surface, SurfaceVars},
			{&shared.surfaceReport, SurfaceReportVars},
			{&shared.surfaceSignal, SurfaceSignalVars},
		} {
			vars := append(append([]lang.Var{}, e.vars...), WeightsVar)
			if *e.env, sharedErr = lang.NewEnv(vars...); sharedErr != nil {
				return
			}
		}
	})
	return shared, sharedErr
}

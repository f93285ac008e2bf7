package heuristic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/gradable"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
)

// Names under which the judge answers.
const (
	// Plugin is the judge's plugin name.
	Plugin = "heuristic"
	// Version is the judge's version. It changes whenever a cue or a
	// threshold changes, because answers change with them and scores
	// from different identities are never compared.
	Version = "1.5.11"
	// Model is the one model the judge has: its rule set.
	Model = "heuristic-1"
)

// Question kinds the judge answers.
const (
	// KindTool asks for the six TDQS dimensions of one tool.
	KindTool = "tdqs.tool"
	// KindCoherence asks for the four coherence dimensions of a server.
	KindCoherence = "tdqs.coherence"
	// KindTasks asks for the Gradable v1 tasks of a surface: requests a
	// user would make, each with the tool expected to serve it.
	KindTasks = "gradable.tasks"
	// KindSelection asks which tool of a surface serves one task, with
	// what arguments, whether to confirm first and in how many steps.
	KindSelection = "gradable.selection"
	// KindDefects asks for the Gradable v1 description defects of one
	// tool and a suggested replacement description.
	KindDefects = "gradable.defects"
	// KindConfusable asks which pairs of a surface's tools a model could
	// mistake for each other, and how badly.
	KindConfusable = "gradable.confusable"
)

// Judge is the offline heuristic judge. It holds no state of its own (a
// package-wide cache of prepared surfaces speeds up selection questions
// and never changes an answer): one Judge may answer from many
// goroutines at once.
type Judge struct{}

// New returns the heuristic judge.
func New() *Judge { return &Judge{} }

func identity() judge.Identity {
	return judge.Identity{Plugin: Plugin, Version: Version, Provider: "rubric", Model: Model, Heuristic: true}
}

// Describe returns the judge's identity.
func (*Judge) Describe(context.Context) (judge.Identity, error) { return identity(), nil }

// Configure accepts no model or the judge's own, heuristic-1, and refuses
// any other. It refuses every option: the rules have no settings, and a
// --judge-option accepted and ignored would look as if it had counted.
func (j *Judge) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	if err := j.CheckOptions(c.Options); err != nil {
		return judge.Identity{}, err
	}
	if c.Model != "" && c.Model != Model {
		return judge.Identity{}, fmt.Errorf("the heuristic judge has only one model, %q; it cannot answer as %q (leave the model empty or pass %q)", Model, c.Model, Model)
	}
	return identity(), nil
}

// CheckOptions implements judge.OptionChecker: the judge takes no option.
func (*Judge) CheckOptions(options map[string]string) error {
	_, err := judgeopt.NewOptions(Plugin, options)
	return err
}

// Capabilities implements judge.Capable: the judge reads a question's
// structured input alone, and answers on this machine in well under the
// time of a call, so a plugin host may leave the prompts out, ask it over
// one stream, and keep many questions in flight.
func (*Judge) Capabilities() []string {
	return []string{judge.CapabilityStructuredInput, judge.CapabilityAskStream, judge.CapabilityLocal}
}

// Ask answers a question of one of the judge's kinds (the TDQS tool and
// coherence questions, the four Gradable v1 questions) from its
// structured input alone; the prompt text is never read. The same
// question always gets the same bytes.
func (*Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if err := ctx.Err(); err != nil {
		return judge.Answer{}, err
	}
	var (
		answer any
		err    error
	)
	switch q.Kind {
	case KindTool:
		var in tdqs.ToolInput
		if err = decodeToolInput(q.Input, &in); err == nil {
			if in.Names, err = sharedNames(q); err == nil {
				answer, err = tdqs.Tool(&in)
			}
		}
	case KindCoherence:
		var in tdqs.CoherenceInput
		if err = decodeCoherenceInput(q.Input, &in); err == nil {
			answer = tdqs.Coherence(&in)
		}
	case KindTasks:
		var in gradable.TasksInput
		if err = decode(q.Input, KindTasks, &in); err == nil {
			answer = gradable.Tasks(&in)
		}
	case KindSelection:
		var in gradable.SelectionInput
		if err = decode(q.Input, KindSelection, &in); err == nil {
			if len(in.Tools) == 0 && q.SharedHash != "" {
				// The tools come once a run, shared by every task.
				in.Tools, in.Key = q.Shared, q.SharedHash
			}
			answer, err = gradable.Selection(&in)
		}
	case KindDefects:
		var in gradable.DefectsInput
		if err = decode(q.Input, KindDefects, &in); err == nil {
			answer, err = gradable.Defects(&in)
		}
	case KindConfusable:
		var in gradable.ConfusableInput
		if err = decode(q.Input, KindConfusable, &in); err == nil {
			answer = gradable.Confusable(&in)
		}
	default:
		return judge.Answer{}, fmt.Errorf("the heuristic judge cannot answer questions of kind %q (it answers %s)", q.Kind,
			strings.Join([]string{KindTool, KindCoherence, KindTasks, KindSelection, KindDefects, KindConfusable}, ", "))
	}
	if err != nil {
		return judge.Answer{}, err
	}
	if a, ok := answer.(jsonAppender); ok {
		return judge.Answer{JSON: a.AppendJSON(nil), Model: Model}, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(answer); err != nil {
		return judge.Answer{}, err
	}
	return judge.Answer{JSON: bytes.TrimRight(buf.Bytes(), "\n"), Model: Model}, nil
}

// jsonAppender is an answer that writes itself as encoding/json would
// (HTML escaping off, no trailing newline), as the TDQS tool answer
// does: the question asked of every tool is answered without
// reflection.
type jsonAppender interface {
	AppendJSON(b []byte) []byte
}

// sharedNames returns the tool names a tdqs.tool question shares with the
// others of its run ({"names": [...]}), indexed once a run; nil when it
// shares none. The questions asked at once wait for the first to index
// them, rather than each indexing them (every one of the first questions
// of a run would, one a worker).
func sharedNames(q judge.Question) (*tdqs.Names, error) {
	if q.SharedHash == "" {
		return nil, nil
	}
	namesCache.Lock()
	e, ok := namesCache.m[q.SharedHash]
	if !ok {
		if len(namesCache.m) >= 8 {
			clear(namesCache.m)
		}
		e = &indexedNames{}
		namesCache.m[q.SharedHash] = e
	}
	namesCache.Unlock()
	e.once.Do(func() {
		var shared struct {
			Names []string `json:"names"`
		}
		if e.err = decode(q.Shared, KindTool, &shared); e.err == nil {
			e.names = tdqs.NewNames(shared.Names)
		}
	})
	return e.names, e.err
}

// indexedNames are the names of one shared value, indexed by the first
// question that needs them, or why they could not be read (the same bytes,
// named by their hash, give the same error).
type indexedNames struct {
	once  sync.Once
	names *tdqs.Names
	err   error
}

// namesCache keeps the indexed names of the last few runs by their shared
// hash. It changes no answer: the same names always index the same way.
var namesCache = struct {
	sync.Mutex
	m map[string]*indexedNames
}{m: map[string]*indexedNames{}}

// decode reads a question's input into v, naming the kind on failure.
func decode(input []byte, kind string, v any) error {
	if err := json.Unmarshal(input, v); err != nil {
		return fmt.Errorf("the question's input is not a %s object: %w", kind, err)
	}
	return nil
}

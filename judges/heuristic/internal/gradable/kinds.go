package gradable

import "fmt"

// Tasks answers a gradable.tasks question: requests a user would make of
// each tool, each with the tool expected to serve it.
func Tasks(in *TasksInput) any { return generateTasks(in) }

// Selection answers a gradable.selection question: the tool a task
// calls for, its arguments, whether to confirm first and the steps.
func Selection(in *SelectionInput) (any, error) { return selectTool(in) }

// Defects answers a gradable.defects question: the description defects
// of one tool and a suggested description.
func Defects(in *DefectsInput) (any, error) {
	if in.Tool == nil || in.Tool.Name == "" {
		return nil, fmt.Errorf(`the question's input has no "tool" object with a "name"`)
	}
	return judgeDefects(*in.Tool), nil
}

// Confusable answers a gradable.confusable question: the pairs of a
// surface's tools a model could mistake for each other.
func Confusable(in *ConfusableInput) any { return findConfusable(in) }

// ResetPrepared empties the cache of prepared surfaces, so that a
// benchmark pays for preparing a surface once per run, as a real run
// does. It never changes an answer.
func ResetPrepared() {
	prepared.Lock()
	defer prepared.Unlock()
	clear(prepared.m)
	prepared.order = nil
}

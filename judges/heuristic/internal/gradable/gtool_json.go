package gradable

import "encoding/json"

// UnmarshalJSON reads a tool as a server sent it, whatever the types of
// its members: a member of the wrong type (an inputSchema that is a
// string, a title that is a number) reads as absent, as the rubric's own
// formulas read it, so one odd tool is scored rather than failing the
// whole question.
func (t *gTool) UnmarshalJSON(b []byte) error {
	var raw struct {
		Name         any `json:"name"`
		Title        any `json:"title"`
		Description  any `json:"description"`
		InputSchema  any `json:"inputSchema"`
		OutputSchema any `json:"outputSchema"`
		Annotations  any `json:"annotations"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*t = gTool{}
	t.Name, _ = raw.Name.(string)
	if s, ok := raw.Title.(string); ok {
		t.Title = &s
	}
	if s, ok := raw.Description.(string); ok {
		t.Description = &s
	}
	t.InputSchema, _ = raw.InputSchema.(map[string]any)
	t.OutputSchema, _ = raw.OutputSchema.(map[string]any)
	t.Annotations, _ = raw.Annotations.(map[string]any)
	return nil
}

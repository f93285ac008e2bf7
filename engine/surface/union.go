package surface

// FormatSet is the Format of an installed set: the union of several
// servers' surfaces, made by Union.
const FormatSet = "set"

// ServerKey is the member Union adds to each tool's definition: the name
// of the server the tool came from, as the client's configuration names
// it. Formulas read it as tool['rubric/server'], and omit(tool,
// ['rubric/server']) is the definition as the server sent it.
const ServerKey = "rubric/server"

// Member is one server of an installed set.
type Member struct {
	// Name is the server's name in the client's configuration.
	Name    string
	Surface *Surface
}

// Union is the installed set of members: every tool of every server, in
// the order of members and then of each server's list, as one surface, so
// that a rubric sees what a model sees when all of them are configured.
// Each tool keeps its server: its definition gains ServerKey, and its
// name in the set is SERVER/TOOL, unique even when two servers list the
// same tool name. The set's server information lists the members, their
// sources and how many tools each listed ({"servers": [{"name",
// "source", "tools"}]}); source is where the set was configured.
func Union(source string, members []Member) *Surface {
	set := &Surface{Source: source, Format: FormatSet, Tools: []Tool{}}
	servers := []any{}
	for _, m := range members {
		servers = append(servers, map[string]any{"name": m.Name, "source": m.Surface.Source, "tools": float64(len(m.Surface.Tools))})
		for _, t := range m.Surface.Tools {
			src := t.Definition()
			def := make(map[string]any, len(src)+1)
			for k, v := range src {
				def[k] = v
			}
			def[ServerKey] = m.Name
			tool := NewTool(t.Name, def)
			tool.Name = m.Name + "/" + t.Name
			set.Tools = append(set.Tools, tool)
		}
		for _, w := range m.Surface.Warnings {
			set.Warnings = append(set.Warnings, m.Name+": "+w)
		}
	}
	set.Server = map[string]any{"servers": servers}
	return set
}

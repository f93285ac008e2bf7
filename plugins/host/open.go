package host

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/columns"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// PinEnv returns the environment variables each pinned plugin is passed,
// by the plugin's name.
func PinEnv(pins map[string]Pin) map[string][]string {
	env := map[string][]string{}
	for name, p := range pins {
		env[name] = p.Env
	}
	return env
}

// Open returns a host and the catalog of plugins it can start: the
// built-ins, served by this executable, the pinned plugins and the plugin
// directories. The catalog's warnings go to o.Log. The caller closes the
// host.
func Open(builtins []protocol.Builtin, pins map[string]Pin, o Options) (*Host, *Catalog, error) {
	self, err := Self()
	if err != nil {
		return nil, nil, err
	}
	c := Discover(Builtins(self, builtins), DefaultDirs(), pins)
	if o.Log != nil {
		for _, w := range c.Warnings {
			o.Log.Warn(w)
		}
	}
	return New(o), c, nil
}

// WriteList writes rows as rubric plugins list shows them, a table or
// with asJSON indented JSON, and each row's problem, or why it was not
// started, to problems; it returns how many rows have a problem.
func WriteList(out, problems io.Writer, rows []Row, asJSON bool) (failed int, err error) {
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(rows)
	}
	lines := [][]string{{"KIND", "NAME", "VERSION", "FROM", "PIN", "SHA256", "PATH"}}
	for _, r := range rows {
		lines = append(lines, []string{r.Kind, r.Name, r.Version, r.From, r.Pin, report.ShortHash(r.SHA256), r.Path})
	}
	columns.Write(out, "", "", lines)
	for _, r := range rows {
		if p := r.Problem(); p != "" {
			fmt.Fprintf(problems, "%s %s: %s\n", r.Kind, r.Name, p)
			failed++
		} else if r.NotStarted != "" {
			fmt.Fprintf(problems, "%s %s: not started: %s\n", r.Kind, r.Name, r.NotStarted)
		}
	}
	return failed, nil
}

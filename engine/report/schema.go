package report

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of the report JSON that Marshal
// writes, for report format Version. It is report.schema.json beside this
// file, embedded so that a command can print it or check a report with it.
//
//go:embed report.schema.json
var Schema []byte

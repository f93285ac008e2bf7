# A contested copy of schema-quality v1, to show how a rubric author argues
# for different weights without touching any code.
#
# The claim: a parameter's description matters more than whether the tool
# lists required fields, because a model that understands a parameter can
# infer whether it is needed. So "described_params" goes from 20 to 25 points
# and "declares_required" from 10 to 5; the total stays 100.
#
# Try it on a recorded report; no server is read again:
#
#   rubric score --format json --out report.json ../shared/corpus/github.tools.json
#   rubric rescore report.json --rubric examples/rubrics/schema-quality-contested.hcl

rubric "schema-quality-contested" {
  version     = "1.0.0-contested.1"
  title       = "Schema Quality (descriptions weigh more)"
  description = "Seven weighted checks of how well each tool's inputSchema guides a model, 0-100, graded A-F."
  round       = 1

  check "input_schema" {
    title  = "Has an inputSchema"
    points = 10
    pass   = "has(tool.inputSchema) && is_object(tool.inputSchema)"
    stop   = true
    issue  = "the tool has no inputSchema object, so a model may send anything; scoring stops here"
  }

  check "has_properties" {
    title  = "Has properties"
    points = 15
    pass   = "size(params(tool)) > 0"
    issue  = "inputSchema declares no properties, so it tells a model nothing about what to send"
  }

  check "declares_required" {
    title  = "Declares required fields"
    points = 5 # was 10
    pass   = "has(tool.inputSchema.required) && is_list(tool.inputSchema.required) && tool.inputSchema.required.exists(r, is_string(r))"
    issue  = "inputSchema has no required list, so a model cannot tell which parameters are mandatory"
  }

  check "described_params" {
    title  = "Every property has a description"
    points = 25 # was 20
    each   = "params(tool)"
    pass   = "is_object(item.schema) && has(item.schema.description) && nonblank(item.schema.description)"
    issue  = "parameters without a description: {items}"
  }

  check "typed_params" {
    title  = "Every property has an explicit type"
    points = 15
    each   = "params(tool)"
    pass   = "typed(item.schema)"
    issue  = "parameters without an explicit type: {items}"
  }

  check "array_items" {
    title  = "Array properties define items"
    points = 15
    each   = "params(tool).filter(p, 'array' in schema_types(p.schema))"
    pass   = <<-CEL
      (has(item.schema.items) && (is_object(item.schema.items) || is_list(item.schema.items)) && nonempty(item.schema.items))
      || (has(item.schema.prefixItems) && nonempty(item.schema.prefixItems))
    CEL
    issue  = "array parameters without items: {items}"
  }

  check "object_properties" {
    title  = "Object properties define nested properties"
    points = 15
    each   = "params(tool).filter(p, 'object' in schema_types(p.schema))"
    pass   = <<-CEL
      (has(item.schema.properties) && is_object(item.schema.properties) && nonempty(item.schema.properties))
      || (has(item.schema.additionalProperties) && is_object(item.schema.additionalProperties) && nonempty(item.schema.additionalProperties))
      || (has(item.schema.patternProperties) && is_object(item.schema.patternProperties) && nonempty(item.schema.patternProperties))
    CEL
    issue  = "object parameters without nested properties: {items}"
  }

  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }

  surface {
    score = "mean(tools.map(t, t.score))"
  }

  grades = { A = 90, B = 75, C = 60, D = 40, F = 0 }
}

# Schema Quality, version 1: seven weighted static checks of each tool's
# inputSchema, scored 0-100 and graded A-F, per tool and overall.
#
# How this file reads the published description of the rubric, where the
# description leaves room:
#
# - A tool whose inputSchema is missing or not an object scores 0, and
#   scoring stops there: the first check stops the others and reports one
#   issue.
# - The parameters are the entries of inputSchema.properties (top level
#   only). A parameter schema with a local $ref (#/$defs/..., #/definitions/...)
#   is resolved through the chain, with a guard against cycles; keys written
#   beside a $ref override the target's. params(tool) does this.
# - "Has properties" needs at least one parameter; "declares required" needs
#   `required` to be an array holding at least one string.
# - Descriptions and explicit types give credit for the fraction of
#   parameters that pass, and full credit when there are no parameters. A
#   description passes when it is a string with non-blank content, or
#   (since 1.1.0) when the parameter is a union (anyOf/oneOf) whose every
#   branch that admits more than null has one, or an allOf one of whose
#   branches has one; described(schema) does this. Schema libraries write
#   an optional value as anyOf [{type: T, description: D}, {type: "null"}]
#   (pydantic's Optional, zod's nullable): clients show, and models read,
#   the description on the branch, so it counts. A type
#   passes when the parameter has `type` (a string, or a non-empty array of
#   strings), `const`, a non-empty `enum`, or `anyOf`/`oneOf` whose every
#   branch passes after its refs are resolved; typed(schema) does this.
# - Array items are checked over the parameters whose `type` is or includes
#   "array": `items` must be a non-empty schema object or a non-empty array,
#   or `prefixItems` non-empty. Full credit when there are no array
#   parameters.
# - Nested object properties are checked over the parameters whose `type` is
#   or includes "object": `properties` non-empty, or `additionalProperties` a
#   non-empty schema object, or `patternProperties` non-empty. Full credit
#   when there are no object parameters.
# - A tool's score is the sum of points times credit, exact. The overall
#   score is the exact mean of the tools' scores; a surface without tools has
#   no overall score. Grades are read off the exact values; scores are shown
#   rounded half up to one decimal.

rubric "schema-quality" {
  version     = "1.1.0"
  title       = "Schema Quality"
  description = "Seven weighted checks of how well each tool's inputSchema guides a model, 0-100, graded A-F."
  round       = 1

  # The points of each check, out of 100: a check's weight is its points.
  weights = {
    input_schema      = 10
    has_properties    = 15
    declares_required = 10
    described_params  = 20
    typed_params      = 15
    array_items       = 15
    object_properties = 15
  }

  # The range of the overall score (a --fail-under number must lie in it).
  scale {
    min = 0
    max = 100
  }

  check "input_schema" {
    title  = "Has an inputSchema"
    pass   = "has(tool.inputSchema) && is_object(tool.inputSchema)"
    stop   = true
    issue  = "the tool has no inputSchema object, so a model may send anything; scoring stops here"
  }

  check "has_properties" {
    title  = "Has properties"
    pass   = "size(params(tool)) > 0"
    # A schema of no properties that allows none does say the tool takes
    # no arguments; the specification still gives these points only to
    # declared properties, and the message says so rather than that the
    # schema says nothing.
    issue = cel(<<-CEL
      has(tool.inputSchema.additionalProperties) && tool.inputSchema.additionalProperties == false
        ? 'inputSchema declares no properties and allows none, so the tool takes no arguments; these points go only to declared properties'
        : 'inputSchema declares no properties, so a model cannot tell whether the tool takes no arguments or takes ones it does not describe'
    CEL
    )
  }

  check "declares_required" {
    title  = "Declares required fields"
    pass   = "has(tool.inputSchema.required) && is_list(tool.inputSchema.required) && tool.inputSchema.required.exists(r, is_string(r))"
    # Without a required list every parameter is optional, which a model
    # reads as such: the message says what it reads, not that it cannot
    # tell.
    issue = cel(<<-CEL
      size(params(tool)) == 0
        ? 'inputSchema lists no required parameter, and declares none to list'
        : 'inputSchema lists no required parameter, so a model reads every parameter as optional'
    CEL
    )
  }

  check "described_params" {
    title  = "Every property has a description"
    each   = "params(tool)"
    pass   = "described(item.schema)"
    issue  = "parameters without a description: {items}"
  }

  check "typed_params" {
    title  = "Every property has an explicit type"
    each   = "params(tool)"
    pass   = "typed(item.schema)"
    issue  = "parameters without an explicit type: {items}"
  }

  check "array_items" {
    title  = "Array properties define items"
    each   = "params(tool).filter(p, 'array' in schema_types(p.schema))"
    pass   = <<-CEL
      (has(item.schema.items) && (is_object(item.schema.items) || is_list(item.schema.items)) && nonempty(item.schema.items))
      || (has(item.schema.prefixItems) && nonempty(item.schema.prefixItems))
    CEL
    issue  = "array parameters without items: {items}"
  }

  check "object_properties" {
    title  = "Object properties define nested properties"
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

  # A fix gains the points its check missed, and a failure that stopped
  # the checks after it also the points of those: the tool's score, in
  # points out of 100, rises by that much, and the overall (the mean of
  # the tools' scores) by that much over the number of tools.
  fixes {
    unit    = "points of the tool's score"
    gain    = "this.points * (1 - this.credit) + (this.stops ? sum(checks.filter(c, c.skipped).map(c, c.points)) : num(0))"
    overall = "the overall score"
    moves   = "gain / tool_count"
  }

  # The rubric's own tests (rubric test schema-quality). By hand: search
  # earns 10 + 15 + 10 + 20 x 1/2 (one of two parameters described) + 15
  # + 15 + 15 = 90; ping has no inputSchema and stops at 0; the overall
  # is their mean, 45, a D.
  test "one described of two, and no schema" {
    surface = <<-JSON
      [
        {"name": "search", "description": "Search notes.", "inputSchema": {"type": "object",
          "properties": {"q": {"type": "string", "description": "The words to find."}, "limit": {"type": "integer"}},
          "required": ["q"]}},
        {"name": "ping", "description": "Check the server is up."}
      ]
    JSON
    expect = {
      score                 = 45
      grade                 = "D"
      "tools.search.score"  = 90
      "tools.search.grade"  = "A"
      "tools.ping.score"    = 0
    }
  }

  grades = { A = 90, B = 75, C = 60, D = 40, F = 0 }
}

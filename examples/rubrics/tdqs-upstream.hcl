# tdqs-upstream.hcl: TDQS v1.3 asked with the specification's own four
# prompts instead of this project's words. It extends the built-in tdqs
# (signals, gates, arithmetic, shadowing checks and the gate are the
# same) and replaces its two questions: each prompt is a fenced code
# block of the specification's README at commit b9881b0, fetched once into
# the cache and refused unless the whole README hashes to the pin. The
# prompts' texts are never stored here.
#
#   block 13  the tool-scoring system prompt (Appendix A)
#   block 14  the tool-scoring user message, with {placeholders}
#   block 15  the server coherence system prompt (Appendix B)
#   block 16  the coherence user message, with {placeholders}
#
# The user messages are filled from the questions' inputs (fill = true):
# each key of an input below is a placeholder of the published message,
# written as the message writes it, so that the message comes out as the
# specification renders it; a key that is a whole line of the message
# (the coherence message's tool line, and the "- ..." line after it)
# replaces that line. Schemas are indented JSON, as the specification
# asks. The inputs also keep the built-in's 'tool', 'signals', 'tools'
# and 'shadowCandidates', so the offline heuristic judge can answer.
#
# The README needs the network the first time: rubric score --rubric
# examples/rubrics/tdqs-upstream.hcl fetches it into the cache.

rubric "tdqs-upstream" {
  extends = "tdqs"
  version = "1.3.0-upstream"

  question "tool" {
    kind    = "tdqs.tool"
    per     = "tool"
    when    = "!signals.noDescription"
    retries = 2
    input   = <<-CEL
      {
        'tool': {
          'name': tool.name,
          'title': has(tool.title) ? tool.title : null,
          'description': tool.description,
          'inputSchema': has(tool.inputSchema) ? tool.inputSchema : null,
          'outputSchema': has(tool.outputSchema) ? tool.outputSchema : null,
          'annotations': has(tool.annotations) ? tool.annotations : null
        },
        'signals': {
          'paramCount': signals.paramCount,
          'requiredParamCount': signals.requiredParamCount,
          'paramsWithDescriptions': signals.paramsWithDescriptions,
          'paramsWithEnums': signals.paramsWithEnums,
          'schemaDescriptionCoverage': signals.schemaDescriptionCoverage,
          'hasNestedObjects': signals.hasNestedObjects,
          'hasAnnotations': signals.hasAnnotations,
          'annotationValues': signals.annotationValues,
          'titleIsMeaningful': signals.titleIsMeaningful,
          'inputHash': signals.inputHash
        },
        'name': tool.name,
        'title | "null"': has(tool.title) && is_string(tool.title) ? tool.title : 'null',
        'description': tool.description,
        'inputSchema JSON | "{}"': has(tool.inputSchema) && is_object(tool.inputSchema) && nonempty(tool.inputSchema) ? tool.inputSchema : '{}',
        'outputSchema JSON | "None provided"': has(tool.outputSchema) && is_object(tool.outputSchema) && nonempty(tool.outputSchema) ? tool.outputSchema : 'None provided',
        'annotations JSON | "None provided"': signals.hasAnnotations ? tool.annotations : 'None provided',
        'paramCount': signals.paramCount,
        'requiredParamCount': signals.requiredParamCount,
        'schemaDescriptionCoverage': signals.schemaDescriptionCoverage,
        'paramsWithEnums': signals.paramsWithEnums,
        'hasNestedObjects': signals.hasNestedObjects,
        'sibling tool names, one per line | "None"': cel.bind(s, surface_signals.toolNames.filter(n, n != tool.name), size(s) == 0 ? 'None' : s.join('\n'))
      }
    CEL
    system = { url = "https://raw.githubusercontent.com/glama-ai/tool-definition-quality-score/b9881b0cfec88969e42672c92544487ca191a992/README.md", sha256 = "3df9d731cb064befc778083a881c796c67b4c6115de725c29140cf02938fdecf", block = 13 }
    user   = { url = "https://raw.githubusercontent.com/glama-ai/tool-definition-quality-score/b9881b0cfec88969e42672c92544487ca191a992/README.md", sha256 = "3df9d731cb064befc778083a881c796c67b4c6115de725c29140cf02938fdecf", block = 14, fill = true }
    answer_schema = <<-JSON
      {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "required": ["scores", "annotation_contradiction", "summary"],
        "properties": {
          "scores": {
            "type": "object",
            "additionalProperties": false,
            "required": ["purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics", "conciseness_structure", "contextual_completeness"],
            "properties": {
              "purpose_clarity": {"$ref": "#/$defs/rated"},
              "usage_guidelines": {"$ref": "#/$defs/rated"},
              "behavioral_transparency": {"$ref": "#/$defs/rated"},
              "parameter_semantics": {"$ref": "#/$defs/rated"},
              "conciseness_structure": {"$ref": "#/$defs/rated"},
              "contextual_completeness": {"$ref": "#/$defs/rated"}
            }
          },
          "annotation_contradiction": {"type": "boolean"},
          "summary": {"type": "string"}
        },
        "$defs": {
          "rated": {
            "type": "object",
            "additionalProperties": false,
            "required": ["score", "justification"],
            "properties": {
              "score": {"type": "integer", "minimum": 1, "maximum": 5},
              "justification": {"type": "string"}
            }
          }
        }
      }
    JSON
  }

  question "coherence" {
    kind    = "tdqs.coherence"
    per     = "surface"
    when    = "size(surface.tools) > 0"
    retries = 2
    input   = <<-CEL
      cel.bind(lines, surface_signals.shadowCandidates.map(c,
          c.tool + ' (cost ' + string(c.invocationCost) + ') may be shadowed by ' + c.cheaperSibling + ' (cost ' + string(c.cheaperSiblingInvocationCost) + ')'), {
        'server': has(surface.server.name) && is_string(surface.server.name) ? surface.server.name : '',
        'toolCount': size(surface.tools),
        'tools': surface_signals.costs,
        'shadowCandidates': lines,
        'serverName': has(surface.server.name) && is_string(surface.server.name) ? surface.server.name : '',
        '- {name} [cost {invocationCost}: {requiredFieldCount} required, depth {schemaDepth}, {unionChoiceCount} union choices]: {description | "(no description)"}':
          surface_signals.costs.map(c, '- ' + c.name + ' [cost ' + string(c.invocationCost) + ': ' + string(c.requiredFieldCount) + ' required, depth '
            + string(c.schemaDepth) + ', ' + string(c.unionChoiceCount) + ' union choices]: ' + (c.description == null ? '(no description)' : c.description)).join('\n'),
        '- ...': '',
        '{"{dearer} (cost {n}) may be shadowed by {cheaper} (cost {m})", one per line, at most one per tool | "None"}': size(lines) == 0 ? 'None' : lines.join('\n')
      })
    CEL
    system = { url = "https://raw.githubusercontent.com/glama-ai/tool-definition-quality-score/b9881b0cfec88969e42672c92544487ca191a992/README.md", sha256 = "3df9d731cb064befc778083a881c796c67b4c6115de725c29140cf02938fdecf", block = 15 }
    user   = { url = "https://raw.githubusercontent.com/glama-ai/tool-definition-quality-score/b9881b0cfec88969e42672c92544487ca191a992/README.md", sha256 = "3df9d731cb064befc778083a881c796c67b4c6115de725c29140cf02938fdecf", block = 16, fill = true }
    answer_schema = <<-JSON
      {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "required": ["scores", "shadowing_risks", "summary"],
        "properties": {
          "shadowing_risks": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["tool", "cheaper_sibling", "justification"],
              "properties": {
                "tool": {"type": "string"},
                "cheaper_sibling": {"type": "string"},
                "justification": {"type": "string"}
              }
            }
          },
          "scores": {
            "type": "object",
            "additionalProperties": false,
            "required": ["disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness"],
            "properties": {
              "disambiguation": {"$ref": "#/$defs/rated"},
              "naming_consistency": {"$ref": "#/$defs/rated"},
              "tool_count_appropriateness": {"$ref": "#/$defs/rated"},
              "completeness": {"$ref": "#/$defs/rated"}
            }
          },
          "summary": {"type": "string"}
        },
        "$defs": {
          "rated": {
            "type": "object",
            "additionalProperties": false,
            "required": ["score", "justification"],
            "properties": {
              "score": {"type": "integer", "minimum": 1, "maximum": 5},
              "justification": {"type": "string"}
            }
          }
        }
      }
    JSON
  }
}

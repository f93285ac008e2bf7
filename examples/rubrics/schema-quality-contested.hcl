# A contested Schema Quality, to show how a rubric author argues for
# different weights without copying the rubric or touching any code.
#
# The claim: a parameter's description matters more than whether the tool
# lists required fields, because a model that understands a parameter can
# infer whether it is needed. So "described_params" goes from 20 to 25
# points and "declares_required" from 10 to 5; the total stays 100.
# Everything else is schema-quality's, and moves with it.
#
# Try it on a recorded report; no server is read again:
#
#   rubric score --format json --out report.json engine/score/testdata/corpus/github.tools.json
#   rubric rescore report.json --rubric examples/rubrics/schema-quality-contested.hcl
#   rubric rubrics diff schema-quality examples/rubrics/schema-quality-contested.hcl

rubric "schema-quality-contested" {
  extends = "schema-quality"
  version = "1.1.0-contested.1"
  title   = "Schema Quality (descriptions weigh more)"
  weights = { described_params = 25, declares_required = 5 }

  # By hand: search earns 10 + 15 + 5 + 25 x 1/2 + 15 + 15 + 15 = 87.5
  # (schema-quality gives it 90); ping stops at 0; the mean is 43.75,
  # shown as 43.8, a D.
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
      score                = 43.8
      grade                = "D"
      "tools.search.score" = 87.5
    }
  }
}

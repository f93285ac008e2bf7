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
#   rubric score --format json --out report.json ../shared/corpus/github.tools.json
#   rubric rescore report.json --rubric examples/rubrics/schema-quality-contested.hcl
#   rubric rubrics diff schema-quality examples/rubrics/schema-quality-contested.hcl

rubric "schema-quality-contested" {
  extends = "schema-quality"
  version = "1.1.0-contested.1"
  title   = "Schema Quality (descriptions weigh more)"
  weights = { described_params = 25, declares_required = 5 }
}

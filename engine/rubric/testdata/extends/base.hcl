rubric "base" {
  version = "1.0.0"
  weights = { typed = 10, purpose_clarity = 20 }
  check "typed" {
    pass  = "has(tool.inputSchema)"
    issue = "no schema"
  }
  check "named" {
    points = 5
    pass   = "tool.name != ''"
    issue  = "no name"
  }
  tool {
    metric "double" {
      value = "sum(checks.map(c, c.points * c.credit)) * 2"
    }
    score = "metrics.double / 2"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
    report "weights" {
      purpose_clarity = "weights.purpose_clarity"
    }
  }
  grades = { A = 20, F = 0 }
}

rubric "scaled" {
  version = "1.0.0"
  weights = { described = 60, typed = 40 }
  scale {
    min = 0
    max = 100
  }
  check "described" {
    pass  = "has(tool.description)"
    issue = "no description"
  }
  check "typed" {
    pass  = "has(tool.inputSchema)"
    issue = "no schema"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, B = 75, F = 0 }
}

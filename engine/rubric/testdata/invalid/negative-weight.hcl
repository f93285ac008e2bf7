rubric "t" {
  version = "1"
  weights = { a = -10 } # ERROR 3:19: weight a is -10: a weight is at least 0
  check "a" {
    pass  = "true"
    issue = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

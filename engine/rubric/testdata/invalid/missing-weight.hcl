rubric "t" {
  version = "1"
  check "a" { # ERROR 3:3: check "a" has no points: set points, or give the rubric a weight named a
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

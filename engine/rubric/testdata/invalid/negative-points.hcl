rubric "t" {
  version = "1"
  check "a" {
    points = -5 # ERROR 4:14: points must not be negative
    pass   = "true"
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

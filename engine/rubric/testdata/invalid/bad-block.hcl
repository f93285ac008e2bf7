rubric "t" {
  version = "1"
  check { # ERROR 3:9: Missing name for check
    points = 10
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

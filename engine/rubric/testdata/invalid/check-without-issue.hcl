rubric "t" {
  version = "1"
  check "c" { # ERROR 3:13: Missing required argument
    points = 10
    pass   = "true"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

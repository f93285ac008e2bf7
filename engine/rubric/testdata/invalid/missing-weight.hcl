rubric "t" {
  version = "1"
  check "a" { # ERROR 3:13: Missing required argument: The argument "points" is required
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

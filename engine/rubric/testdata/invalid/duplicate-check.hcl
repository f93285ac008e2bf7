rubric "t" {
  version = "1"
  check "a" {
    points = 10
    pass   = "true"
    issue  = "x"
  }
  check "a" { # ERROR 8:9: check "a" is declared twice
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

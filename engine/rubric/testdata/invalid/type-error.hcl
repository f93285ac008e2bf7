rubric "t" {
  version = "1"
  check "a" {
    points = 10
    pass   = "size(params(tool)) + 1" # ERROR 5:15: pass: the formula yields int, want bool
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

rubric "t" {
  version = "1"
  check "a" {
    points = 10
    pass   = "true"
    issue  = "bad: {items}" # ERROR 6:14: {items} needs items
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

rubric "t" {
  version = "1"
  tool {
    score = "sum(checks.map(c, c.points * ))" # ERROR 4:43: score: Syntax error
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

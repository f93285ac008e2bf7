rubric "t" {
  version = "1"
  tool {
    score = "'high'" # ERROR 4:14: score: the formula yields string, want num
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

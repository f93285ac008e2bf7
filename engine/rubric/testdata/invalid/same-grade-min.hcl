rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, B = 90, F = 0 } # ERROR 9:26: grades A and B start at the same score 90
}

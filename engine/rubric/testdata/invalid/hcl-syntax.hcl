rubric "t" {
  version = "1"
  tool {
    score = "100"
  # ERROR 1:12: Unclosed configuration block
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

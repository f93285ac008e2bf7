rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 75, B = 90, C = 60, D = 40, F = 0 } # ERROR 9:18: grade A starts at 75, below B at 90: graded by letter, A is the highest grade and each next letter starts lower; swap the two starts if that was meant
}

rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  # B starts above A: a threshold, not a letter, decides the order, so
  # that is no mistake; but no grade starts at the scale's min, and a
  # score below 90 would have none.
  grades = { A = 90, B = 95 } # ERROR 12:12: the lowest grade, A, starts at 90, above the scale's min 0: a score below 90 would have no grade; add a grade that starts at 0, such as F = 0
  scale {
    min = 0
    max = 100
  }
}

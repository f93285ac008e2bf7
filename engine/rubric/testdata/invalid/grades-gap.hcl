rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  # Written lowest first: the starts, not the order written, rank the
  # grades, so that is no mistake; but no grade starts at the scale's
  # min, and a score below 90 would have none.
  grades = { B = 90, A = 95 } # ERROR 12:12: the lowest grade, B, starts at 90, above the scale's min 0: a score below 90 would have no grade; add a grade that starts at 0, such as F = 0
  scale {
    min = 0
    max = 100
  }
}

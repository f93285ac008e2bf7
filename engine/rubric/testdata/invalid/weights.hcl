rubric "t" {
  version = "1"
  weights = { described = 20, "quoted" = 1, described = 3, bad = "x" }
  # ERROR 3:31: a weight is named by a word, such as purpose_clarity
  # ERROR 3:45: weight described is given twice
  # ERROR 3:66: want a number
  check "described" {
    points = 5 # ERROR 8:5: check "described" has points and a weight of the same name: remove points
    pass   = "true"
    issue  = "x"
  }
  check "other" { # ERROR 12:3: check "other" has no points: set points, or give the rubric a weight named other
    pass  = "true"
    issue = "x"
  }
  tool {
    score = "weights.describd + weights.nothing_like_it"
    # ERROR 17:14: weights.describd names no weight: did you mean weights.described? the rubric's weights are described
    # ERROR 17:33: weights.nothing_like_it names no weight: the rubric's weights are described
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

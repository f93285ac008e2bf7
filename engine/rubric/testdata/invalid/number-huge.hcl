rubric "t" {
  version = "1"
  check "a" {
    points = 1e99999999 # ERROR 4:14: about 1e+99999999 is out of range
    pass   = "true"
    issue  = "x"
  }
  check "b" {
    points = -1e-99999999 # ERROR 9:14: about -1e-99999999 is out of range
    pass   = "true"
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 0 }
}

rubric "t" {
  version = "1"
  check "a" {
    points = 1e999999999 # ERROR 4:14: is out of range
    pass   = "true"
    issue  = "x"
  }
  check "b" {
    points = -1e20 # ERROR 9:14: -1e+20 is out of range
    pass   = "true"
    issue  = "x"
  }
  check "c" {
    points = 1e-30 # ERROR 14:14: 1e-30 is out of range
    pass   = "true"
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = {
    A = 1e999999999 # ERROR 25:9: is out of range
    B = 1e16 # ERROR 26:9: 1e+16 is out of range
    F = 0
  }
}

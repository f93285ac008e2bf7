rubric "t" {
  version = "1"
  check "a" {
    points = 10
    pass   = "tool.name == 'x' && mean(['a']) > 1" # ERROR 5:39: pass: found no matching overload for 'mean'
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}

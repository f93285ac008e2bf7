rubric "t" {
  version = "1"
  check "a" {
    points = 10
    pass   = <<-CEL
      has(tool.name) &&
      tool.name == 'x' && nosuch
    CEL
    # ERROR 7:27: pass: undeclared reference to 'nosuch'
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

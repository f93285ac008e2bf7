rubric "stops" {
  version = "1.0.0"
  weights = { has_schema = 10, has_properties = 10 }
  check "has_schema" {
    pass  = "has(tool.inputSchema)"
    stop  = true
    issue = "no schema"
  }
  check "has_properties" {
    pass  = "has(tool.inputSchema.properties)"
    issue = "no properties"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 18, F = 0 }
}

rubric "labels" {
  version = "1"
  judge_labels = {
    taskGeneratorVersion = "tasks-v1"
    model = "m" # ERROR 5:5: "model" is a member the judge block already has
    Plugin = "p" # ERROR 6:5: "Plugin" is a member the judge block already has
    promptTemplateVersion = 2 # ERROR 7:29: label promptTemplateVersion must be a string
  }
  tool {
    score = "1"
  }
  surface {
    score = "1"
  }
  grades = { A = 1, F = 0 }
}

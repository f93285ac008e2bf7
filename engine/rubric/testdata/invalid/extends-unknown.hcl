rubric "child" {
  extends = "tdq" # ERROR 2:13: extends "tdq" names no built-in rubric
  version = "1"
}

rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }

  # A test's inline surface that is no JSON is an error at the character
  # that breaks it, in the file: a heredoc's lines are the file's lines.
  test "heredoc" {
    surface = <<-JSON
      [
        {"name": "ping", "description": "up?"
      ]
    JSON
    # ERROR 17:7: test "heredoc": surface: invalid JSON: invalid character ']' after object key:value pair
    expect = { score = 100 }
  }
  # In quotes, an escaped quote is one character of the JSON.
  test "quoted" {
    surface = "[{\"name\": \"ping\",}]" # ERROR 24:37: test "quoted": surface: invalid JSON: invalid character '}'
    expect  = { score = 100 }
  }
  test "not a surface" {
    surface = "{\"server\": {}}" # ERROR 28:15: test "not a surface": surface: $: no "tools" member
    expect  = { score = 100 }
  }
}

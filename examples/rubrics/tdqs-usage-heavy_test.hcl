# The tests of tdqs-usage-heavy.hcl (rubric test examples/rubrics/tdqs-usage-heavy.hcl),
# beside it so that the rubric stays the four lines of issue 14. The
# offline heuristic judge answers (rubric score --format json shows its
# scores); by hand:
#   search_notes pc 5, ug 4, bt 3, ps 3, cs 5, cc 4:
#     15x5 + 30x4 + 20x3 + 15x3 + 10x5 + 10x4 = 390 -> 3.9 (tdqs: 400 -> 4.0)
#   get_note (tautological, pc capped at 2) pc 2, ug 1, bt 1, ps 4, cs 2, cc 1:
#     30 + 30 + 20 + 60 + 20 + 10 = 170 -> 1.7 (tdqs: 180 -> 1.8)
test "usage weighs more" {
  surface = <<-JSON
    [
      {"name": "search_notes", "description": "Search the user's notes by words and return the matching notes, newest first. Use get_note to read one note in full.", "inputSchema": {"type": "object",
        "properties": {"q": {"type": "string", "description": "The words to find."}, "limit": {"type": "integer", "description": "At most this many notes."}},
        "required": ["q"]}, "annotations": {"readOnlyHint": true}},
      {"name": "get_note", "description": "get_note"}
    ]
  JSON
  expect = {
    "tools.search_notes.score" = 3.9
    "tools.get_note.score"     = 1.7
    "tools.get_note.tier"      = "D"
  }
}

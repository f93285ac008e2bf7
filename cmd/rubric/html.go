package main

import "github.com/rubricmcp/rubric/engine/explain"

// explainer gives a report the arithmetic of each tool's score for the
// HTML page (explain.ToolExplainer).
var explainer = explain.ToolExplainer

package main

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/examples/servers/internal/store"
)

// This file holds every tool definition sloppy publishes. They are poor on
// purpose, in the ways real servers are: the comment above each tool names
// the defects it demonstrates, and the tests check that each one reaches
// tools/list. No tool has a title or an outputSchema, and none sets an
// annotation, so a client sees "annotations": {} and must assume the
// worst of every tool. The handlers are in handlers.go.

// tools returns sloppy's tools bound to st.
func tools(st *store.Store) []server.ServerTool {
	h := handlers{st: st}
	return []server.ServerTool{
		{Tool: getData, Handler: h.getData},
		{Tool: search, Handler: h.search},
		{Tool: findBookmarks, Handler: h.findBookmarks},
		{Tool: save, Handler: h.save},
		{Tool: updateBookmark, Handler: h.updateBookmark},
		{Tool: remove, Handler: h.remove},
		{Tool: export, Handler: h.export},
	}
}

// getData: a name that restates behaviour and says nothing of the
// resource, with a description that only repeats it ("Gets data."); the
// one parameter has neither a type nor a description; no required list;
// nothing says what comes back.
var getData = mcp.NewToolWithRawSchema("get_data", "Gets data.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "id": {}
  }
}`))

// search: half of a confusable pair with find_bookmarks, and nothing tells
// a model which to pick; parameters without descriptions; an array
// without items (what goes in tags?); an object without properties (what
// filters exist?); no required list; no return description.
var search = mcp.NewToolWithRawSchema("search", "Search bookmarks.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "q":       {"type": "string"},
    "tags":    {"type": "array"},
    "filters": {"type": "object"}
  }
}`))

// findBookmarks: the other half of the confusable pair, doing the same as
// search under another name and other parameter names; both parameters
// are untyped and undescribed, so a model cannot tell that limit is a
// number; no required list.
var findBookmarks = mcp.NewToolWithRawSchema("find_bookmarks", "Find bookmarks.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "text":  {},
    "limit": {}
  }
}`))

// save: a parameter named data, of type string, that must hold a whole
// bookmark as JSON, whose fields are written down nowhere; it creates or,
// when the JSON carries an id, silently overwrites, which the description
// does not say (and update_bookmark does the same); no required list.
var save = mcp.NewToolWithRawSchema("save", "Saves a bookmark from data.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "data": {"type": "string"}
  }
}`))

// updateBookmark: fields is an object without properties, so the
// changeable fields are a guess; overlaps with save; nothing says what is
// overwritten or what comes back; parameters undescribed.
var updateBookmark = mcp.NewToolWithRawSchema("update_bookmark", "Updates a bookmark.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "id":     {"type": "string"},
    "fields": {"type": "object"}
  },
  "required": ["id"]
}`))

// remove: deletes a bookmark for good, with no destructiveHint and no
// warning in the description; the name does not even say what is removed;
// id is untyped and undescribed; no required list.
var remove = mcp.NewToolWithRawSchema("remove", "Removes a bookmark.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "id": {}
  }
}`))

// export: format is a free string although only three values work, with
// no enum and no description; options is an object without properties
// that the handler ignores; no required list; no word on what comes back.
var export = mcp.NewToolWithRawSchema("export", "Exports bookmarks.", json.RawMessage(`{
  "type": "object",
  "properties": {
    "format":  {"type": "string"},
    "options": {"type": "object"}
  }
}`))

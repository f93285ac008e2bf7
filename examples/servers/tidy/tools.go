package main

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/examples/servers/internal/store"
)

// This file holds every tool definition tidy publishes: name, title,
// description, annotations and both schemas, written as raw JSON so that
// every keyword reaches tools/list unchanged (mcp-go's typed schema would
// drop enum, format, minimum, default, examples and the rest). The
// handlers are in handlers.go.

// bookmarkSchema is one bookmark as the tools return it; "@bookmark@" in a
// schema below stands for it.
const bookmarkSchema = `{
  "type": "object",
  "description": "One saved bookmark.",
  "properties": {
    "id":      {"type": "string", "pattern": "^bm-[0-9]+$", "description": "Id assigned by the server when the bookmark was created, such as bm-3; it never changes."},
    "url":     {"type": "string", "format": "uri", "description": "The bookmarked http or https address."},
    "title":   {"type": "string", "description": "Short human-readable title."},
    "tags":    {"type": "array", "items": {"type": "string"}, "description": "Lower-case tags, sorted, without duplicates; empty when the bookmark has none."},
    "note":    {"type": "string", "description": "Free-text note; empty when none was written."},
    "created": {"type": "string", "format": "date-time", "description": "When the bookmark was saved, RFC 3339 in UTC."}
  },
  "required": ["id", "url", "title", "tags", "note", "created"],
  "additionalProperties": false
}`

// schema turns the JSON of a schema into its compact wire form, with
// "@bookmark@" replaced by bookmarkSchema. It panics on invalid JSON: the
// definitions are constants, and a mistake must stop the server at start.
func schema(src string) json.RawMessage {
	src = strings.ReplaceAll(src, `"@bookmark@"`, bookmarkSchema)
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(src)); err != nil {
		panic("tidy: invalid schema JSON: " + err.Error() + "\n" + src)
	}
	return buf.Bytes()
}

// hints builds annotations; a tidy tool always states all four hints.
func hints(title string, readOnly, destructive, idempotent, openWorld bool) mcp.ToolAnnotation {
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    mcp.ToBoolPtr(readOnly),
		DestructiveHint: mcp.ToBoolPtr(destructive),
		IdempotentHint:  mcp.ToBoolPtr(idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(openWorld),
	}
}

// define assembles one tool.
func define(name, title, description string, ann mcp.ToolAnnotation, input, output string) mcp.Tool {
	t := mcp.NewToolWithRawSchema(name, description, schema(input))
	t.Title = title
	t.Annotations = ann
	t.RawOutputSchema = schema(output)
	return t
}

// tools returns tidy's tools bound to st.
func tools(st *store.Store) []server.ServerTool {
	h := handlers{st: st}
	return []server.ServerTool{
		{Tool: searchTool, Handler: h.search},
		{Tool: getTool, Handler: h.get},
		{Tool: createTool, Handler: h.create},
		{Tool: updateTool, Handler: h.update},
		{Tool: tagTool, Handler: h.tag},
		{Tool: deleteTool, Handler: h.delete},
		{Tool: exportTool, Handler: h.export},
	}
}

var searchTool = define("search_bookmarks", "Search bookmarks",
	"Search the saved bookmarks by text and tags, newest first. "+
		"Use it when you do not know a bookmark's id; when you do, call get_bookmark instead, "+
		"and to hand the whole collection to another program call export_bookmarks. "+
		"Read-only and idempotent: nothing is changed, no authentication is needed and no request leaves the server. "+
		"Returns `bookmarks` (at most `limit`, each with id, url, title, tags, note and created time) "+
		"and `total`, the number of matches before the limit was applied.",
	hints("Search bookmarks", true, false, true, false),
	`{
  "type": "object",
  "properties": {
    "query": {
      "type": "string", "maxLength": 200,
      "description": "Text to find in the title, URL or note, matched case-insensitively as one substring. An empty string matches every bookmark.",
      "examples": ["json schema", "go.dev"]
    },
    "tags": {
      "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 32}, "maxItems": 10, "default": [],
      "description": "Only return bookmarks that carry every one of these tags (case-insensitive). Omit it, or pass an empty list, to ignore tags.",
      "examples": [["reference"], ["go", "http"]]
    },
    "limit": {
      "type": "integer", "minimum": 1, "maximum": 50, "default": 10,
      "description": "Most bookmarks to return, from 1 to 50; 10 when omitted. Narrow the query rather than raising it: there are no further pages."
    }
  },
  "required": ["query"],
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {
    "bookmarks": {"type": "array", "items": "@bookmark@", "description": "The matches, newest first."},
    "total":     {"type": "integer", "minimum": 0, "description": "How many bookmarks matched, counting those cut off by the limit."}
  },
  "required": ["bookmarks", "total"],
  "additionalProperties": false
}`)

var getTool = define("get_bookmark", "Get a bookmark",
	"Get one bookmark by its id, with every field. "+
		"Use it when you already hold an id, for example from search_bookmarks or create_bookmark; "+
		"to find bookmarks by words or tags use search_bookmarks instead. "+
		"Read-only and idempotent; needs no authentication. "+
		"Returns `bookmark` with id, url, title, tags, note and created time; "+
		"an id that names no bookmark is a tool error saying so.",
	hints("Get a bookmark", true, false, true, false),
	`{
  "type": "object",
  "properties": {
    "id": {
      "type": "string", "pattern": "^bm-[0-9]+$",
      "description": "The bookmark's id, as returned by search_bookmarks or create_bookmark.",
      "examples": ["bm-3"]
    }
  },
  "required": ["id"],
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {"bookmark": "@bookmark@"},
  "required": ["bookmark"],
  "additionalProperties": false
}`)

var createTool = define("create_bookmark", "Create a bookmark",
	"Create a bookmark for a URL that is not saved yet, with a title and optional tags and note. "+
		"If the URL is already saved the call fails and the error names the existing bookmark: "+
		"change that one with update_bookmark instead, or add tags with tag_bookmarks. "+
		"Adds one record to the in-memory collection and never changes or removes others; "+
		"it does not fetch the URL and needs no authentication. "+
		"Idempotent, so safe to retry: a second call with the same URL adds nothing and fails naming the bookmark the first one made. "+
		"Returns the new `bookmark`, with the id the server assigned.",
	hints("Create a bookmark", false, false, true, false),
	`{
  "type": "object",
  "properties": {
    "url": {
      "type": "string", "format": "uri", "pattern": "^https?://", "maxLength": 2048,
      "description": "Absolute http or https address to save. Each URL can be saved once.",
      "examples": ["https://go.dev/blog/"]
    },
    "title": {
      "type": "string", "minLength": 1, "maxLength": 200,
      "description": "Short human-readable title, usually the page's own title.",
      "examples": ["The Go Blog"]
    },
    "tags": {
      "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 32}, "maxItems": 10, "default": [],
      "description": "Tags to file the bookmark under; stored lower-case, sorted and without duplicates. At most 10.",
      "examples": [["go", "blog"]]
    },
    "note": {
      "type": "string", "maxLength": 2000, "default": "",
      "description": "Free-text note kept with the bookmark, such as why it was saved."
    }
  },
  "required": ["url", "title"],
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {"bookmark": "@bookmark@"},
  "required": ["bookmark"],
  "additionalProperties": false
}`)

var updateTool = define("update_bookmark", "Update a bookmark",
	"Update one existing bookmark's url, title, tags or note. "+
		"Use it to correct or rewrite a bookmark; to add tags while keeping the existing ones use tag_bookmarks, "+
		"and to save a new URL use create_bookmark. "+
		"Destructive: each field you pass overwrites the old value, which is not kept, and `tags` replaces the whole list; "+
		"fields you leave out keep their values. "+
		"Idempotent: repeating the same call changes nothing more. Needs no authentication. "+
		"Returns the `bookmark` as it is after the change.",
	hints("Update a bookmark", false, true, true, false),
	`{
  "type": "object",
  "properties": {
    "id": {
      "type": "string", "pattern": "^bm-[0-9]+$",
      "description": "Id of the bookmark to change, as returned by search_bookmarks or create_bookmark.",
      "examples": ["bm-2"]
    },
    "url": {
      "type": "string", "format": "uri", "pattern": "^https?://", "maxLength": 2048,
      "description": "New absolute http or https address; it must not be saved on another bookmark."
    },
    "title": {
      "type": "string", "minLength": 1, "maxLength": 200,
      "description": "New title."
    },
    "tags": {
      "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 32}, "maxItems": 10,
      "description": "The complete new list of tags, replacing every current tag; pass [] to remove them all."
    },
    "note": {
      "type": "string", "maxLength": 2000,
      "description": "New note; pass an empty string to clear it."
    }
  },
  "required": ["id"],
  "minProperties": 2,
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {"bookmark": "@bookmark@"},
  "required": ["bookmark"],
  "additionalProperties": false
}`)

var tagTool = define("tag_bookmarks", "Tag bookmarks",
	"Tag one or more bookmarks with extra tags, keeping the tags they already carry. "+
		"Use it to label several bookmarks at once; to remove or replace tags use update_bookmark instead. "+
		"Additive and idempotent: a tag a bookmark already has is not added twice, and nothing is removed. "+
		"All or nothing: if any id is unknown, or a bookmark would end up with more than 10 tags, no bookmark is changed. "+
		"Needs no authentication. "+
		"Returns the updated `bookmarks`, in the order of `ids`.",
	hints("Tag bookmarks", false, false, true, false),
	`{
  "type": "object",
  "properties": {
    "ids": {
      "type": "array", "items": {"type": "string", "pattern": "^bm-[0-9]+$"}, "minItems": 1, "maxItems": 50, "uniqueItems": true,
      "description": "Ids of the bookmarks to tag, as returned by search_bookmarks.",
      "examples": [["bm-1", "bm-4"]]
    },
    "tags": {
      "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 32}, "minItems": 1, "maxItems": 10,
      "description": "Tags to add; stored lower-case.",
      "examples": [["to-read"]]
    }
  },
  "required": ["ids", "tags"],
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {
    "bookmarks": {"type": "array", "items": "@bookmark@", "description": "Every tagged bookmark after the change, in the order of the ids asked for."}
  },
  "required": ["bookmarks"],
  "additionalProperties": false
}`)

var deleteTool = define("delete_bookmark", "Delete a bookmark",
	"Delete one bookmark by id, permanently. "+
		"Use it only when the user asks for a bookmark to be removed; to change a bookmark use update_bookmark instead. "+
		"Destructive and irreversible: there is no trash and no undo. "+
		"Idempotent: deleting an id that does not exist, or no longer exists, is not an error and changes nothing. "+
		"Needs no authentication. "+
		"Returns `deleted`, true when a bookmark was removed, and the removed `bookmark`, "+
		"whose fields can be passed to create_bookmark to save it again.",
	hints("Delete a bookmark", false, true, true, false),
	`{
  "type": "object",
  "properties": {
    "id": {
      "type": "string", "pattern": "^bm-[0-9]+$",
      "description": "Id of the bookmark to delete, as returned by search_bookmarks or create_bookmark.",
      "examples": ["bm-5"]
    }
  },
  "required": ["id"],
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {
    "deleted":  {"type": "boolean", "description": "True when a bookmark was removed, false when the id named none."},
    "bookmark": "@bookmark@"
  },
  "required": ["deleted"],
  "additionalProperties": false
}`)

var exportTool = define("export_bookmarks", "Export bookmarks",
	"Export every bookmark, or those carrying one tag, as a single JSON, CSV or Markdown document. "+
		"Use it to hand bookmarks to a person or another program; "+
		"to look bookmarks up use search_bookmarks, which returns structured records. "+
		"Read-only and idempotent: writes no file and needs no authentication. "+
		"Returns `content`, the document as text (CSV has a header row and joins tags with \";\"), "+
		"with its `format` and the `count` of bookmarks in it.",
	hints("Export bookmarks", true, false, true, false),
	`{
  "type": "object",
  "properties": {
    "format": {
      "type": "string", "enum": ["json", "csv", "markdown"],
      "description": "Document format: json (an array of bookmark objects), csv (one row per bookmark) or markdown (a list of links)."
    },
    "tag": {
      "type": "string", "minLength": 1, "maxLength": 32,
      "description": "Only export bookmarks carrying this tag (case-insensitive). Omit it to export every bookmark.",
      "examples": ["reference"]
    }
  },
  "required": ["format"],
  "additionalProperties": false
}`,
	`{
  "type": "object",
  "properties": {
    "format":  {"type": "string", "enum": ["json", "csv", "markdown"], "description": "The format asked for."},
    "count":   {"type": "integer", "minimum": 0, "description": "How many bookmarks the document holds."},
    "content": {"type": "string", "description": "The document itself."}
  },
  "required": ["format", "count", "content"],
  "additionalProperties": false
}`)

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/examples/servers/internal/store"
)

// handlers serve sloppy's tools from one store. They work, and they are
// lenient about what they get, the way a server without schemas has to be:
// ids may be numbers or strings, and results are plain text.
type handlers struct {
	st *store.Store
}

// id accepts "bm-3", "3" or 3.
func id(v any) string {
	s := strings.TrimSpace(fmt.Sprint(v))
	if f, ok := v.(float64); ok {
		s = strconv.FormatFloat(f, 'f', -1, 64)
	}
	if _, err := strconv.Atoi(s); err == nil {
		return "bm-" + s
	}
	return s
}

// number accepts 5, 5.0 or "5"; def when absent or unreadable.
func number(v any, def int) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			return i
		}
	}
	return def
}

func strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func text(v any) (*mcp.CallToolResult, error) {
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(out)), nil
}

func fail(err error) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError("error: " + err.Error()), nil
}

func (h handlers) getData(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	b, err := h.st.Get(id(req.GetArguments()["id"]))
	if err != nil {
		return fail(err)
	}
	return text(b)
}

func (h handlers) search(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	q, _ := args["q"].(string)
	filters, _ := args["filters"].(map[string]any)
	found, _ := h.st.Search(q, strs(args["tags"]), number(filters["limit"], 20))
	return text(found)
}

func (h handlers) findBookmarks(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	q, _ := args["text"].(string)
	found, _ := h.st.Search(q, nil, number(args["limit"], 5))
	return text(found)
}

func (h handlers) save(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw, _ := req.GetArguments()["data"].(string)
	var in struct {
		ID    string   `json:"id"`
		URL   string   `json:"url"`
		Title string   `json:"title"`
		Tags  []string `json:"tags"`
		Note  string   `json:"note"`
	}
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		return fail(err)
	}
	if in.ID == "" {
		b, err := h.st.Create(in.URL, in.Title, in.Tags, in.Note)
		if err != nil {
			return fail(err)
		}
		return mcp.NewToolResultText("ok " + b.ID), nil
	}
	// With an id, every field is overwritten, the empty ones included.
	b, err := h.st.Update(id(in.ID), store.Patch{URL: &in.URL, Title: &in.Title, Tags: &in.Tags, Note: &in.Note})
	if err != nil {
		return fail(err)
	}
	return mcp.NewToolResultText("ok " + b.ID), nil
}

func (h handlers) updateBookmark(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	fields, _ := args["fields"].(map[string]any)
	var p store.Patch
	for k, v := range fields {
		s := fmt.Sprint(v)
		switch k {
		case "url":
			p.URL = &s
		case "title":
			p.Title = &s
		case "note":
			p.Note = &s
		case "tags":
			tags := strs(v)
			p.Tags = &tags
		}
	}
	if _, err := h.st.Update(id(args["id"]), p); err != nil {
		return fail(err)
	}
	return mcp.NewToolResultText("ok"), nil
}

func (h handlers) remove(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if _, ok := h.st.Delete(id(req.GetArguments()["id"])); !ok {
		return mcp.NewToolResultError("not found"), nil
	}
	return mcp.NewToolResultText("ok"), nil
}

func (h handlers) export(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	format, _ := req.GetArguments()["format"].(string)
	if format == "" {
		format = "json"
	}
	out, err := store.Export(h.st.All(""), strings.ToLower(format))
	if err != nil {
		return fail(err)
	}
	return mcp.NewToolResultText(out), nil
}

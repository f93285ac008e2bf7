package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/examples/servers/internal/store"
)

// handlers serve tidy's tools from one store. Arguments have already been
// checked against each tool's inputSchema by the server
// (server.WithInputSchemaValidation), and results against its
// outputSchema (server.WithOutputSchemaValidation).
type handlers struct {
	st *store.Store
}

// result returns v as structured content, with the same JSON as text for
// clients that read only text.
func result(v any) (*mcp.CallToolResult, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultStructured(v, string(text)), nil
}

// failure words a store error as a tool error a model can act on.
func failure(err error) (*mcp.CallToolResult, error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return mcp.NewToolResultError(err.Error() + "; find ids with search_bookmarks"), nil
	case errors.Is(err, store.ErrDuplicate):
		return mcp.NewToolResultError(err.Error() + "; change it with update_bookmark"), nil
	}
	return mcp.NewToolResultError(err.Error()), nil
}

func bind(req mcp.CallToolRequest, v any) *mcp.CallToolResult {
	if err := req.BindArguments(v); err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("arguments: %v", err))
	}
	return nil
}

func (h handlers) search(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		Query string   `json:"query"`
		Tags  []string `json:"tags"`
		Limit *int     `json:"limit"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	limit := store.DefaultPage
	if args.Limit != nil {
		limit = min(max(*args.Limit, 1), store.MaxSearch)
	}
	found, total := h.st.Search(args.Query, args.Tags, limit)
	return result(map[string]any{"bookmarks": found, "total": total})
}

func (h handlers) get(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		ID string `json:"id"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	b, err := h.st.Get(args.ID)
	if err != nil {
		return failure(err)
	}
	return result(map[string]any{"bookmark": b})
}

func (h handlers) create(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		URL   string   `json:"url"`
		Title string   `json:"title"`
		Tags  []string `json:"tags"`
		Note  string   `json:"note"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	b, err := h.st.Create(args.URL, args.Title, args.Tags, args.Note)
	if err != nil {
		return failure(err)
	}
	return result(map[string]any{"bookmark": b})
}

func (h handlers) update(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		ID    string    `json:"id"`
		URL   *string   `json:"url"`
		Title *string   `json:"title"`
		Tags  *[]string `json:"tags"`
		Note  *string   `json:"note"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	b, err := h.st.Update(args.ID, store.Patch{URL: args.URL, Title: args.Title, Tags: args.Tags, Note: args.Note})
	if err != nil {
		return failure(err)
	}
	return result(map[string]any{"bookmark": b})
}

func (h handlers) tag(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		IDs  []string `json:"ids"`
		Tags []string `json:"tags"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	bs, err := h.st.AddTags(args.IDs, args.Tags)
	if err != nil {
		return failure(err)
	}
	return result(map[string]any{"bookmarks": bs})
}

func (h handlers) delete(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		ID string `json:"id"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	b, ok := h.st.Delete(args.ID)
	if !ok {
		return result(map[string]any{"deleted": false})
	}
	return result(map[string]any{"deleted": true, "bookmark": b})
}

func (h handlers) export(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		Format string `json:"format"`
		Tag    string `json:"tag"`
	}
	if bad := bind(req, &args); bad != nil {
		return bad, nil
	}
	bs := h.st.All(args.Tag)
	content, err := store.Export(bs, args.Format)
	if err != nil {
		return failure(err)
	}
	return result(map[string]any{"format": args.Format, "count": len(bs), "content": content})
}

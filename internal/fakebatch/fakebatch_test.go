package fakebatch

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// keys are the member names of a JSON object, and of the objects it
// holds, as paths ("request_counts.total"), sorted; arrays are entered
// through their first element.
func keys(t *testing.T, doc []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	var out []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				out = append(out, prefix+k)
				walk(prefix+k+".", e)
			}
		case []any:
			if len(v) > 0 {
				walk(prefix, v[0])
			}
		}
	}
	walk("", v)
	slices.Sort(out)
	return out
}

func recorded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(b)
}

func send(t *testing.T, method, url, contentType string, body []byte) []byte {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return bytes.TrimSpace(b)
}

// TestShapesAreTheRecordedOnes: every document the fake serves has the
// members, nested ones included, of the recorded example of its shape in
// testdata, so that a judge tested against the fake reads what the
// providers send.
func TestShapesAreTheRecordedOnes(t *testing.T) {
	s := Start(func([]byte) string { return `{"n": 7}` })
	defer s.Close()
	var held atomic.Bool
	held.Store(true)
	s.Hold = held.Load
	check := func(name string, got []byte) {
		t.Helper()
		if want := keys(t, recorded(t, name)); !slices.Equal(keys(t, got), want) {
			t.Errorf("%s: the fake's members\n%v\nthe recorded ones\n%v", name, keys(t, got), want)
		}
	}

	// OpenAI: upload, create, look (held, then ended), read the output.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("purpose", "batch")
	fw, _ := mw.CreateFormFile("file", "rubric-batch.jsonl")
	io.WriteString(fw, `{"custom_id": "3f9c0d", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m", "messages": []}}`+"\n")
	mw.Close()
	file := send(t, "POST", s.URL+"/v1/files", mw.FormDataContentType(), form.Bytes())
	check("openai-file.json", file)
	var f struct{ ID string }
	json.Unmarshal(file, &f)
	created := send(t, "POST", s.URL+"/v1/batches", "application/json", []byte(`{"input_file_id": "`+f.ID+`", "endpoint": "/v1/chat/completions", "completion_window": "24h"}`))
	var b struct {
		ID, Status string
	}
	json.Unmarshal(created, &b)
	if b.Status != "validating" {
		t.Errorf("a new batch is %q", b.Status)
	}
	if !strings.Contains(string(send(t, "GET", s.URL+"/v1/batches/"+b.ID, "", nil)), `"in_progress"`) {
		t.Error("a held batch is not in progress")
	}
	held.Store(false)
	ended := send(t, "GET", s.URL+"/v1/batches/"+b.ID, "", nil)
	check("openai-batch.json", ended)
	var e struct {
		Output string `json:"output_file_id"`
	}
	json.Unmarshal(ended, &e)
	check("openai-output.jsonl", send(t, "GET", s.URL+"/v1/files/"+e.Output+"/content", "", nil))

	// Anthropic: create, look, read the results.
	held.Store(true)
	mb := send(t, "POST", s.URL+"/v1/messages/batches", "application/json", []byte(`{"requests": [{"custom_id": "3f9c0d", "params": {"model": "m", "max_tokens": 10, "messages": []}}]}`))
	var m struct{ ID string }
	json.Unmarshal(mb, &m)
	held.Store(false)
	check("anthropic-batch.json", send(t, "GET", s.URL+"/v1/messages/batches/"+m.ID, "", nil))
	check("anthropic-results.jsonl", send(t, "GET", s.URL+"/v1/messages/batches/"+m.ID+"/results", "", nil))

	c := s.Counts()
	if c.Uploads != 1 || c.Creates != 2 || c.Retrieves != 3 || c.Results != 2 || c.Submitted["3f9c0d"] != 2 || len(c.Twice()) != 1 {
		t.Errorf("counts %+v", c)
	}
}

// TestList: GET /v1/batches lists the OpenAI batches newest first, in
// pages of limit, each batch with the metadata it was created with, in
// the recorded shape of a list (testdata/openai-batch-list.json).
func TestList(t *testing.T) {
	s := Start(func([]byte) string { return `{"n": 7}` })
	defer s.Close()
	s.Hold = func() bool { return true }
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("purpose", "batch")
	fw, _ := mw.CreateFormFile("file", "rubric-batch.jsonl")
	io.WriteString(fw, `{"custom_id": "a1", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m", "messages": []}}`+"\n")
	mw.Close()
	var f struct{ ID string }
	json.Unmarshal(send(t, "POST", s.URL+"/v1/files", mw.FormDataContentType(), form.Bytes()), &f)
	for _, nonce := range []string{"first", "second"} {
		send(t, "POST", s.URL+"/v1/batches", "application/json", []byte(`{"input_file_id": "`+f.ID+`", "endpoint": "/v1/chat/completions", "completion_window": "24h", "metadata": {"rubric_nonce": "`+nonce+`"}}`))
	}
	type page struct {
		Data []struct {
			ID       string
			Metadata map[string]string
		}
		FirstID string `json:"first_id"`
		LastID  string `json:"last_id"`
		HasMore bool   `json:"has_more"`
	}
	one := send(t, "GET", s.URL+"/v1/batches?limit=1", "", nil)
	if got, want := keys(t, one), keys(t, recorded(t, "openai-batch-list.json")); !slices.Equal(got, want) {
		t.Errorf("the fake's list members\n%v\nthe recorded ones\n%v", got, want)
	}
	var p page
	json.Unmarshal(one, &p)
	if len(p.Data) != 1 || p.Data[0].ID != "batch_2" || p.Data[0].Metadata["rubric_nonce"] != "second" || !p.HasMore || p.LastID != "batch_2" {
		t.Fatalf("first page %s", one)
	}
	var rest page
	json.Unmarshal(send(t, "GET", s.URL+"/v1/batches?limit=1&after="+p.LastID, "", nil), &rest)
	if len(rest.Data) != 1 || rest.Data[0].ID != "batch_1" || rest.Data[0].Metadata["rubric_nonce"] != "first" || rest.HasMore {
		t.Fatalf("second page %+v", rest)
	}
	if c := s.Counts(); c.Lists != 2 {
		t.Errorf("lists counted %d, want 2", c.Lists)
	}
}

// TestAnthropicList: the message batches are listed newest first, a page
// of limit at a time, onwards with after_id and back with before_id, in
// the recorded shape of a list (testdata/anthropic-batch-list.json), each
// created a second after the one before.
func TestAnthropicList(t *testing.T) {
	s := Start(func([]byte) string { return `{"n": 1}` })
	defer s.Close()
	var hold atomic.Bool
	hold.Store(true)
	s.Hold = hold.Load
	for _, id := range []string{"a", "b", "c"} {
		send(t, "POST", s.URL+"/v1/messages/batches", "application/json", []byte(`{"requests": [{"custom_id": "`+id+`", "params": {"model": "m"}}]}`))
	}
	type page struct {
		Data []struct {
			ID               string
			ProcessingStatus string `json:"processing_status"`
			CreatedAt        string `json:"created_at"`
		}
		FirstID string `json:"first_id"`
		LastID  string `json:"last_id"`
		HasMore bool   `json:"has_more"`
	}
	get := func(query string) (page, []byte) {
		b := send(t, "GET", s.URL+"/v1/messages/batches?"+query, "", nil)
		var p page
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		return p, b
	}
	ids := func(p page) []string {
		var out []string
		for _, d := range p.Data {
			out = append(out, d.ID)
		}
		return out
	}
	first, doc := get("limit=2")
	if got, want := keys(t, doc), keys(t, recorded(t, "anthropic-batch-list.json")); !slices.Equal(got, want) {
		t.Errorf("the fake's list members\n%v\nthe recorded ones\n%v", got, want)
	}
	if !slices.Equal(ids(first), []string{"msgbatch_3", "msgbatch_2"}) || !first.HasMore || first.FirstID != "msgbatch_3" || first.LastID != "msgbatch_2" {
		t.Fatalf("first page %s", doc)
	}
	if d := first.Data[0]; d.ProcessingStatus != "in_progress" || d.CreatedAt != "2026-12-01T09:00:02Z" {
		t.Errorf("a held batch listed as %+v", d)
	}
	next, doc := get("limit=2&after_id=" + first.LastID)
	if !slices.Equal(ids(next), []string{"msgbatch_1"}) || next.HasMore {
		t.Fatalf("next page %s", doc)
	}
	back, doc := get("limit=1&before_id=msgbatch_1")
	if !slices.Equal(ids(back), []string{"msgbatch_2"}) || !back.HasMore {
		t.Fatalf("page before msgbatch_1: %s", doc)
	}
	hold.Store(false)
	if all, _ := get(""); len(all.Data) != 3 || all.Data[2].ProcessingStatus != "ended" {
		t.Errorf("once released, listed %+v: want three, ended", all.Data)
	}
	if c := s.Counts(); c.Lists != 4 {
		t.Errorf("lists counted %d, want 4", c.Lists)
	}
}

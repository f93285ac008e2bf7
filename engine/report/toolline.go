package report

import (
	"strconv"

	"github.com/rubricmcp/rubric/internal/jsonenc"
	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// appendTool appends t as encoding/json writes it with HTML escaping off,
// without its rubric fields (see appendMembers), byte for byte: a JSON
// report of a hundred thousand tools is mostly these lines, and
// encoding/json's reflection over the same few structs, line after line,
// was most of the cost of writing them. Its own members and those of
// each check and issue are written here; metrics and answers, whose
// values are anything a rubric computes or a judge said, and a score that
// is not a JSON number, whose error encoding/json words, go through
// encoding/json as before (TestToolLinesAsEncodingJSON holds the two to
// the same bytes and the same errors).
func appendTool(dst []byte, t *Tool) ([]byte, error) {
	if t.Score != "" && !jsonscan.ValidNumber(string(t.Score)) {
		b, err := encode(t, "")
		return append(dst, b...), err
	}
	var err error
	dst = appendMember(dst, `{"name":`, t.Name)
	dst = appendMember(dst, `,"hash":`, t.Hash)
	dst = append(dst, `,"score":`...)
	if t.Score == "" {
		dst = append(dst, '0') // encoding/json's zero json.Number
	} else {
		dst = append(dst, t.Score...)
	}
	dst = appendMember(dst, `,"exact":`, t.Exact)
	dst = appendMember(dst, `,"grade":`, t.Grade)
	if len(t.Metrics) > 0 {
		if dst, err = appendMetrics(dst, t.Metrics); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `,"checks":`...)
	dst = appendList(dst, t.Checks, appendCheck)
	dst = append(dst, `,"issues":`...)
	dst = appendList(dst, t.Issues, appendIssue)
	if len(t.Answers) > 0 {
		if dst, err = appendAnswers(dst, t.Answers); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendMetrics appends a tool's metrics as encoding/json writes them:
// here when every value is made of what formulas give (maps of strings,
// lists, strings, integers, booleans, null, valid JSON numbers), else all
// of them through encoding/json, which then words any error. A judged
// rubric's tool has several map and list metrics, and encoding/json's
// reflection over them was a twentieth of a score's allocations.
func appendMetrics(dst []byte, ms []Metric) ([]byte, error) {
	start := len(dst)
	dst = append(dst, `,"metrics":[`...)
	for i := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendMember(dst, `{"name":`, ms[i].Name)
		dst = append(dst, `,"value":`...)
		var ok bool
		if dst, ok = jsonenc.Append(dst, ms[i].Value, false, 0); !ok {
			return appendEncoded(dst[:start], `,"metrics":`, ms)
		}
		if ms[i].Exact != "" {
			dst = appendMember(dst, `,"exact":`, ms[i].Exact)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), nil
}

// appendAnswers appends a tool's answers as encoding/json writes them:
// each written here when its answer is JSON encoding/json would write as
// it is (a judge's answer is canonical JSON), or all of them through
// encoding/json, which then words any error.
func appendAnswers(dst []byte, obs []Observation) ([]byte, error) {
	for i := range obs {
		if obs[i].Answer != nil && !compactJSON(obs[i].Answer) {
			return appendEncoded(dst, `,"answers":`, obs)
		}
	}
	dst = append(dst, `,"answers":`...)
	return appendList(dst, obs, appendObservation), nil
}

// appendObservation appends o as encoding/json writes an Observation
// whose answer is nil or compact JSON.
func appendObservation(dst []byte, o *Observation) []byte {
	dst = appendMember(dst, `{"question":`, o.Question)
	dst = appendMember(dst, `,"kind":`, o.Kind)
	dst = appendMember(dst, `,"subject":`, o.Subject)
	dst = appendMember(dst, `,"question_digest":`, o.QuestionDigest)
	dst = appendMember(dst, `,"input_hash":`, o.InputHash)
	dst = append(dst, `,"answer":`...)
	if o.Answer == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, o.Answer...)
	}
	dst = appendMember(dst, `,"model":`, o.Model)
	dst = append(dst, `,"tokens":{"input":`...)
	dst = strconv.AppendInt(dst, int64(o.Tokens.Input), 10)
	dst = append(dst, `,"output":`...)
	dst = strconv.AppendInt(dst, int64(o.Tokens.Output), 10)
	if o.Tokens.Cached != 0 {
		dst = append(dst, `,"cached":`...)
		dst = strconv.AppendInt(dst, int64(o.Tokens.Cached), 10)
	}
	dst = append(dst, '}')
	if o.Cached {
		dst = append(dst, `,"cached":true`...)
	}
	dst = append(dst, `,"attempts":`...)
	dst = strconv.AppendInt(dst, int64(o.Attempts), 10)
	if o.PromptBytes != 0 {
		dst = append(dst, `,"prompt_bytes":`...)
		dst = strconv.AppendInt(dst, int64(o.PromptBytes), 10)
	}
	if c := o.Counted; c != nil {
		dst = appendMember(dst, `,"counted_tokens":{"encoding":`, c.Encoding)
		dst = append(dst, `,"prompt":`...)
		dst = strconv.AppendInt(dst, int64(c.Prompt), 10)
		dst = append(dst, `,"answer":`...)
		dst = strconv.AppendInt(dst, int64(c.Answer), 10)
		dst = append(dst, '}')
	}
	if o.Unreadable != "" {
		dst = appendMember(dst, `,"unreadable":`, o.Unreadable)
	}
	return append(dst, '}')
}

// appendEncoded appends key and v as encoding/json writes it, or returns
// dst as it was and encoding/json's error.
func appendEncoded(dst []byte, key string, v any) ([]byte, error) {
	b, err := encode(v, "")
	if err != nil {
		return dst, err
	}
	return append(append(dst, key...), b...), nil
}

// appendList appends a list as encoding/json writes a slice: null when
// it is nil, each element written by one.
func appendList[T any](dst []byte, list []T, one func([]byte, *T) []byte) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = one(dst, &list[i])
	}
	return append(dst, ']')
}

// appendString appends s as encoding/json writes it, HTML escaping off.
func appendString(dst []byte, s *string) []byte {
	return jsonstr.Append(dst, *s, jsonstr.EncodingJSON)
}

// appendMember appends key (the member's name, quoted, with its colon and
// any comma before it) and s as encoding/json writes it.
func appendMember(dst []byte, key, s string) []byte {
	return jsonstr.Append(append(dst, key...), s, jsonstr.EncodingJSON)
}

// appendCheck appends c as encoding/json writes a Check.
func appendCheck(dst []byte, c *Check) []byte {
	dst = appendMember(dst, `{"name":`, c.Name)
	dst = appendMember(dst, `,"title":`, c.Title)
	dst = appendMember(dst, `,"points":`, c.Points)
	dst = appendMember(dst, `,"credit":`, c.Credit)
	dst = append(dst, `,"passed":`...)
	dst = strconv.AppendInt(dst, int64(c.Passed), 10)
	dst = append(dst, `,"total":`...)
	dst = strconv.AppendInt(dst, int64(c.Total), 10)
	dst = append(dst, `,"items":`...)
	dst = strconv.AppendBool(dst, c.Items)
	if len(c.Failed) > 0 {
		dst = append(dst, `,"failed":`...)
		dst = appendList(dst, c.Failed, appendString)
	}
	if c.Skipped {
		dst = append(dst, `,"skipped":true`...)
	}
	if c.Error != "" {
		dst = appendMember(dst, `,"error":`, c.Error)
	}
	return append(dst, '}')
}

// appendIssue appends is as encoding/json writes an Issue.
func appendIssue(dst []byte, is *Issue) []byte {
	dst = appendMember(dst, `{"check":`, is.Check)
	if is.Title != "" {
		dst = appendMember(dst, `,"title":`, is.Title)
	}
	dst = appendMember(dst, `,"message":`, is.Message)
	dst = append(dst, `,"params":`...)
	dst = appendList(dst, is.Params, appendString)
	dst = appendMember(dst, `,"points":`, is.Points)
	for _, m := range [...]struct{ name, value string }{
		{`,"gain":`, is.Gain}, {`,"moves":`, is.Moves}, {`,"severity":`, is.Severity},
	} {
		if m.value != "" {
			dst = appendMember(dst, m.name, m.value)
		}
	}
	return append(dst, '}')
}

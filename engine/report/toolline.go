package report

import (
	"strconv"

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
	dst = append(dst, `{"name":`...)
	dst = jsonstr.Append(dst, t.Name, jsonstr.EncodingJSON)
	dst = append(dst, `,"hash":`...)
	dst = jsonstr.Append(dst, t.Hash, jsonstr.EncodingJSON)
	dst = append(dst, `,"score":`...)
	if t.Score == "" {
		dst = append(dst, '0') // encoding/json's zero json.Number
	} else {
		dst = append(dst, t.Score...)
	}
	dst = append(dst, `,"exact":`...)
	dst = jsonstr.Append(dst, t.Exact, jsonstr.EncodingJSON)
	dst = append(dst, `,"grade":`...)
	dst = jsonstr.Append(dst, t.Grade, jsonstr.EncodingJSON)
	if len(t.Metrics) > 0 {
		b, err := encode(t.Metrics, "")
		if err != nil {
			return dst, err
		}
		dst = append(append(dst, `,"metrics":`...), b...)
	}
	dst = append(dst, `,"checks":`...)
	dst = appendList(dst, t.Checks, appendCheck)
	dst = append(dst, `,"issues":`...)
	dst = appendList(dst, t.Issues, appendIssue)
	if len(t.Answers) > 0 {
		b, err := encode(t.Answers, "")
		if err != nil {
			return dst, err
		}
		dst = append(append(dst, `,"answers":`...), b...)
	}
	return append(dst, '}'), nil
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

// appendCheck appends c as encoding/json writes a Check.
func appendCheck(dst []byte, c *Check) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsonstr.Append(dst, c.Name, jsonstr.EncodingJSON)
	dst = append(dst, `,"title":`...)
	dst = jsonstr.Append(dst, c.Title, jsonstr.EncodingJSON)
	dst = append(dst, `,"points":`...)
	dst = jsonstr.Append(dst, c.Points, jsonstr.EncodingJSON)
	dst = append(dst, `,"credit":`...)
	dst = jsonstr.Append(dst, c.Credit, jsonstr.EncodingJSON)
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
		dst = append(dst, `,"error":`...)
		dst = jsonstr.Append(dst, c.Error, jsonstr.EncodingJSON)
	}
	return append(dst, '}')
}

// appendIssue appends is as encoding/json writes an Issue.
func appendIssue(dst []byte, is *Issue) []byte {
	dst = append(dst, `{"check":`...)
	dst = jsonstr.Append(dst, is.Check, jsonstr.EncodingJSON)
	dst = append(dst, `,"message":`...)
	dst = jsonstr.Append(dst, is.Message, jsonstr.EncodingJSON)
	dst = append(dst, `,"params":`...)
	dst = appendList(dst, is.Params, appendString)
	dst = append(dst, `,"points":`...)
	dst = jsonstr.Append(dst, is.Points, jsonstr.EncodingJSON)
	for _, m := range [...]struct{ name, value string }{
		{`,"gain":`, is.Gain}, {`,"moves":`, is.Moves}, {`,"severity":`, is.Severity},
	} {
		if m.value != "" {
			dst = jsonstr.Append(append(dst, m.name...), m.value, jsonstr.EncodingJSON)
		}
	}
	return append(dst, '}')
}

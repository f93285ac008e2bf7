package jsonpos

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestDecoding(t *testing.T) {
	type tool struct {
		Name string `json:"name"`
	}
	type file struct {
		Version int    `json:"version"`
		Tools   []tool `json:"tools"`
	}
	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "", "f.json: the file is empty"},
		{"blank", " \n", "f.json: the file is empty"},
		{"truncated", "{\n  \"version\": 1,\n  \"to", "f.json:3:6: the file is truncated: its JSON stops after 23 bytes, before the document is complete"},
		{"not JSON", "{\n  x", "f.json:2:3: not valid JSON: invalid character 'x' looking for beginning of object key string"},
		{"a field of the wrong type", "{\"version\": \"1\"}", `f.json:1:13: "version" holds a string, where a whole number is wanted`},
		{"a nested field", "{\"tools\": [{\"name\": 3}]}", `f.json:1:21: "tools.name" holds a number, where a string is wanted`},
		{"the wrong top level", "[1]", "f.json:1:1: the file holds an array, where an object is wanted"},
		{"an unknown field", "{\"extra\": 1}", `f.json: unknown field "extra"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dec := json.NewDecoder(bytes.NewReader([]byte(c.data)))
			dec.DisallowUnknownFields()
			var f file
			err := dec.Decode(&f)
			if err == nil {
				t.Fatal("decoded")
			}
			if got := Decoding("f.json", []byte(c.data), err).Error(); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeError is an error of encoding/json decoding a file, said where
// it is and in words a user can act on: no Go type names, and a file cut
// short named as truncated rather than "unexpected EOF".
type DecodeError struct {
	// Name is the file, as given.
	Name string
	// At is where the error is; Line is 0 when it is not known.
	At Pos
	// Msg says what is wrong.
	Msg string
	// Err is encoding/json's error.
	Err error
}

// Where is the file and, when known, its line and column: name:line:col.
func (e *DecodeError) Where() string {
	if e.At.Line == 0 {
		return e.Name
	}
	return fmt.Sprintf("%s:%d:%d", e.Name, e.At.Line, e.At.Column)
}

// Error is the failure prefixed with where it is (see Where).
func (e *DecodeError) Error() string { return e.Where() + ": " + e.Msg }

// Unwrap returns encoding/json's error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decoding describes err, an error of decoding data (the whole of the
// file name) with encoding/json, as a DecodeError.
func Decoding(name string, data []byte, err error) *DecodeError {
	e := &DecodeError{Name: name, Err: err}
	at := func(off int64) Pos {
		off = max(0, min(off, int64(len(data))))
		return position(data, int(off))
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case len(strings.TrimSpace(string(data))) == 0 && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		e.Msg = "the file is empty"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		e.At = at(int64(len(data)))
		unit := "bytes"
		if len(data) == 1 {
			unit = "byte"
		}
		e.Msg = fmt.Sprintf("the file is truncated: its JSON stops after %d %s, before the document is complete", len(data), unit)
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		off := se.Offset
		if off > 0 {
			off--
		}
		e.At = at(off)
		e.Msg = "not valid JSON: " + se.Error()
	case errors.As(err, &te):
		e.At = at(valueStart(data, te))
		want := kindOf(te.Type)
		if te.Field == "" {
			e.Msg = fmt.Sprintf("the file holds %s, where %s is wanted", article(te.Value), want)
		} else {
			e.Msg = fmt.Sprintf("%q holds %s, where %s is wanted", te.Field, article(te.Value), want)
		}
	default:
		e.Msg = strings.TrimPrefix(err.Error(), "json: ")
	}
	return e
}

// position is the line and column (in characters) of the byte offset off.
func position(data []byte, off int) Pos {
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return Pos{Offset: off, Line: line, Column: len([]rune(string(data[start:off]))) + 1}
}

// article is a JSON kind as encoding/json names it (string, number,
// object, array, bool) with its article.
func article(kind string) string {
	switch {
	case kind == "bool":
		return "true or false"
	case strings.HasPrefix(kind, "number"):
		return "a number"
	case kind == "array" || kind == "object":
		return "an " + kind
	}
	return "a " + kind
}

// kindOf is the JSON value a Go type is decoded from.
func kindOf(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "another value"
}

// valueStart is the offset of the value te is about: encoding/json's
// Offset is just past its opening bracket, or just past a scalar.
func valueStart(data []byte, te *json.UnmarshalTypeError) int64 {
	off := min(te.Offset, int64(len(data)))
	if te.Value == "array" || te.Value == "object" {
		return max(off-1, 0)
	}
	i := off - 1
	switch {
	case i < 0:
		return 0
	case data[i] == '"':
		for i--; i >= 0; i-- {
			if data[i] == '"' && (i == 0 || data[i-1] != '\\') {
				return i
			}
		}
		return 0
	}
	for i >= 0 && strings.IndexByte("+-.0123456789eEtruefalsn", data[i]) >= 0 {
		i--
	}
	return i + 1
}

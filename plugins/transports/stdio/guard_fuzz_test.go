package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// chunked reads at most n bytes a call, so lines straddle reads.
type chunked struct {
	r io.Reader
	n int
}

func (c chunked) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// guardModel is the guard's rule said plainly, line by line: a line longer
// than limit breaks it; a blank line is dropped; a line that is valid JSON
// starting with '{' (after white space) is passed on without that white
// space; any other line is skipped, and breaks the rule in strict mode or
// once more than maxLines lines, or more than maxBytes bytes of lines that
// do not start with '{', have been skipped. It returns what the guard
// passes on and whether the rule broke.
func guardModel(data []byte, limit int64, strict bool, maxLines int, maxBytes int64) ([]byte, bool) {
	var out []byte
	skipped, skipBytes := 0, int64(0)
	lines := bytes.Split(data, []byte{'\n'})
	for i, line := range lines {
		if i == len(lines)-1 && len(line) == 0 {
			break
		}
		if int64(len(line)) > limit {
			return out, true
		}
		t := bytes.TrimLeft(line, " \t\r")
		switch {
		case len(t) == 0:
			continue
		case t[0] == '{' && json.Valid(t):
			out = append(append(out, t...), '\n')
			continue
		case strict:
			return out, true
		case t[0] != '{':
			if skipBytes += int64(len(t)); skipBytes > maxBytes {
				return out, true
			}
		}
		if skipped++; skipped > maxLines {
			return out, true
		}
	}
	return out, false
}

// FuzzOutGuard checks the stdout guard against guardModel, whatever the
// chunks the output arrives in: it passes on exactly what the model
// passes on, and reports a broken rule exactly when the model breaks.
// Once Read has returned an error, stopped is closed.
func FuzzOutGuard(f *testing.F) {
	for _, seed := range []string{
		"{\"jsonrpc\":\"2.0\"}\n",
		"\n  \r\n{}\n{}",
		"hello world\n",
		"{\"a\":1}\nnot json\n{\"b\":2}\n",
		"{" + string(bytes.Repeat([]byte("x"), 40)) + "}\n",
		"{\"a\":[[[1]]]}\n{\"a\":\n",
		"   ",
	} {
		f.Add([]byte(seed), uint8(32), uint8(7), false, uint8(2), uint8(20))
	}
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk uint8, strict bool, maxLines, maxBytes uint8) {
		if chunk == 0 {
			chunk = 1
		}
		g := newOutGuard(chunked{bytes.NewReader(data), int(chunk)}, int64(limit), strict)
		g.maxLines, g.maxBytes = int(maxLines), int64(maxBytes)
		var out bytes.Buffer
		buf := make([]byte, 13)
		var err error
		for err == nil {
			var n int
			n, err = g.Read(buf)
			out.Write(buf[:n])
		}
		select {
		case <-g.stopped:
		default:
			t.Fatalf("Read returned %v, but stopped is still open", err)
		}
		want, wantBroken := guardModel(data, int64(limit), strict, int(maxLines), int64(maxBytes))
		broken, eof := g.state()
		switch {
		case !bytes.Equal(out.Bytes(), want):
			t.Fatalf("%q (limit %d, strict %v) passed on as %q, want %q", data, limit, strict, out.Bytes(), want)
		case wantBroken != (broken != nil):
			t.Fatalf("%q (limit %d, strict %v): broken %v, want broken %v", data, limit, strict, broken, wantBroken)
		case !wantBroken && (!errors.Is(err, io.EOF) || !eof):
			t.Fatalf("%q: ended with %v, eof %v", data, err, eof)
		}
	})
}

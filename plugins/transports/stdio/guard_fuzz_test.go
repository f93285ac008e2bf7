package stdio

import (
	"bytes"
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

// validOutput is the guard's rule said plainly: every line is blank or a
// message starting with '{' after white space, and no line (without its
// newline) is longer than limit.
func validOutput(data []byte, limit int64) bool {
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if int64(len(line)) > limit {
			return false
		}
		if t := bytes.TrimLeft(line, " \t\r"); len(t) > 0 && t[0] != '{' {
			return false
		}
	}
	return true
}

// FuzzOutGuard checks the stdout guard against validOutput: what it passes
// on is always a prefix of the input, all of it when the output is valid,
// and it reports a broken rule exactly when the output is not valid. Once
// Read has returned an error, stopped is closed.
func FuzzOutGuard(f *testing.F) {
	for _, seed := range []string{
		"{\"jsonrpc\":\"2.0\"}\n",
		"\n  \r\n{}\n{}",
		"hello world\n",
		"{\"a\":1}\nnot json\n",
		"{" + string(bytes.Repeat([]byte("x"), 40)) + "}\n",
		"   ",
	} {
		f.Add([]byte(seed), uint8(32), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk uint8) {
		if chunk == 0 {
			chunk = 1
		}
		g := newOutGuard(chunked{bytes.NewReader(data), int(chunk)}, int64(limit))
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
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("passed on %q, not a prefix of %q", out.Bytes(), data)
		}
		broken, eof := g.state()
		valid := validOutput(data, int64(limit))
		switch {
		case valid && (broken != nil || !errors.Is(err, io.EOF) || !eof):
			t.Fatalf("valid output %q (limit %d) stopped: %v, %v", data, limit, err, broken)
		case valid && !bytes.Equal(out.Bytes(), data):
			t.Fatalf("valid output %q passed on as %q", data, out.Bytes())
		case !valid && broken == nil:
			t.Fatalf("invalid output %q (limit %d) passed: %q", data, limit, out.Bytes())
		}
	})
}

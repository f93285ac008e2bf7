package protocol

import (
	"context"
	"strconv"
	"testing"
	"unsafe"

	"github.com/rubricmcp/rubric/engine/judge"
)

// deepJudge answers whether its goroutine's stack moved (was copied to
// a larger one) while the answer took about 6 KiB of it, as the
// heuristic judge's deep calls take several.
type deepJudge struct{ streamer }

func (d *deepJudge) Ask(context.Context, judge.Question) (judge.Answer, error) {
	var here byte
	before := uintptr(unsafe.Pointer(&here))
	deepCalls(6)
	moved := uintptr(unsafe.Pointer(&here)) != before
	return judge.Answer{JSON: []byte(strconv.FormatBool(moved))}, nil
}

// deepCalls takes n KiB of stack or so, a frame a KiB.
//
//go:noinline
func deepCalls(n int) byte {
	var frame [1 << 10]byte
	frame[n] = byte(n)
	if n == 0 {
		return frame[0]
	}
	return deepCalls(n-1) + frame[n]
}

// TestAskStreamGrowsTheStackOnce: a question asked over the stream is
// answered on a stack already grown (growStack), so that the judge's
// deep calls do not copy it again and again, each copy walking all their
// frames.
func TestAskStreamGrowsTheStackOnce(t *testing.T) {
	c := serveServer(t, &judgeServer{impl: &deepJudge{streamer{caps: streamCaps}}})
	for i := range 5 {
		a, err := c.Ask(context.Background(), judge.Question{Kind: "k", Subject: strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		if string(a.JSON) != "false" {
			t.Errorf("question %d: the stack moved while the judge answered", i)
		}
	}
}

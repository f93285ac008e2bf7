package protocol

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rubricmcp/rubric/engine/judge"
)

// askStatus carries the errors the engine acts on across the wire: a rate
// limit as ResourceExhausted with the wait in a RetryInfo detail, an
// unreadable reply as DataLoss. Any other error stays as it is and ends
// the run.
func askStatus(err error) error {
	var rl *judge.RateLimitError
	var ur *judge.UnreadableError
	switch {
	case errors.As(err, &rl):
		st := status.New(codes.ResourceExhausted, rl.Msg)
		if rl.RetryAfter > 0 {
			if d, derr := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(rl.RetryAfter)}); derr == nil {
				st = d
			}
		}
		return st.Err()
	case errors.As(err, &ur):
		return status.Error(codes.DataLoss, ur.Msg)
	}
	return err
}

// askError turns what askStatus sent back into the engine's errors.
func askError(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		if st, ok := status.FromError(err); ok {
			switch st.Code() {
			case codes.ResourceExhausted:
				rl := &judge.RateLimitError{Msg: st.Message()}
				for _, d := range st.Details() {
					if ri, ok := d.(*errdetails.RetryInfo); ok {
						rl.RetryAfter = ri.GetRetryDelay().AsDuration()
					}
				}
				return rl
			case codes.DataLoss:
				return &judge.UnreadableError{Msg: st.Message()}
			}
		}
	}
	return remote(ctx, err)
}

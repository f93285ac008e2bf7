package protocol

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
)

// The marks of a rate limit and of a permanent failure, as ErrorInfo
// details.
const (
	rateLimited  = "RATE_LIMITED"
	permanent    = "PERMANENT"
	needsSetting = "NEEDS_SETTING"
	errorDomain  = "rubric.plugin.v1"
)

// askStatus carries the errors the engine acts on across the wire: a rate
// limit as ResourceExhausted with an ErrorInfo mark and the wait in a
// RetryInfo detail, an unreadable reply as DataLoss. Any other error stays
// as it is and ends the run.
func askStatus(err error) error {
	var rl *judge.RateLimitError
	var ur *judge.UnreadableError
	switch {
	case errors.As(err, &rl):
		details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: rateLimited, Domain: errorDomain}}
		if rl.RetryAfter > 0 {
			details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(rl.RetryAfter)})
		}
		st, derr := status.New(codes.ResourceExhausted, rl.Msg).WithDetails(details...)
		if derr != nil {
			return err
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
				// gRPC itself says ResourceExhausted for a message over
				// its size limit: only the plugin's own mark makes it a
				// rate limit.
				rl := &judge.RateLimitError{Msg: st.Message()}
				marked := false
				for _, d := range st.Details() {
					switch d := d.(type) {
					case *errdetails.RetryInfo:
						rl.RetryAfter = d.GetRetryDelay().AsDuration()
					case *errdetails.ErrorInfo:
						marked = marked || d.GetReason() == rateLimited && d.GetDomain() == errorDomain
					}
				}
				if marked {
					return rl
				}
			case codes.DataLoss:
				return &judge.UnreadableError{Msg: st.Message()}
			}
		}
	}
	return remote(ctx, err)
}

// exportStatus carries a transport's permanent failure (see
// transport.Permanent) across the wire as FailedPrecondition with an
// ErrorInfo mark; any other error stays as it is.
func exportStatus(err error) error {
	if !transport.IsPermanent(err) {
		return err
	}
	return marked(err, permanent, nil)
}

// exportError turns what exportStatus sent back into the engine's
// errors: only the plugin's own mark makes a failure permanent.
func exportError(ctx context.Context, err error) error {
	if st, _, ok := markOf(ctx, err, permanent); ok {
		return transport.Permanent(errors.New(st.Message()))
	}
	return remote(ctx, err)
}

// configureStatus carries a judge's missing setting (judge.SettingError)
// across the wire as FailedPrecondition with an ErrorInfo mark whose
// metadata are the error's fields; any other error stays as it is.
func configureStatus(err error) error {
	var se *judge.SettingError
	if !errors.As(err, &se) {
		return err
	}
	return marked(err, needsSetting, map[string]string{"judge": se.Judge, "setting": se.Setting, "what": se.What, "value": se.Value, "advice": se.Advice})
}

// configureError turns what configureStatus sent back into the engine's
// errors: only the plugin's own mark makes a judge.SettingError.
func configureError(ctx context.Context, err error) error {
	if _, m, ok := markOf(ctx, err, needsSetting); ok {
		return &judge.SettingError{Judge: m["judge"], Setting: m["setting"], What: m["what"], Value: m["value"], Advice: m["advice"]}
	}
	return remote(ctx, err)
}

// marked is err as FailedPrecondition with an ErrorInfo mark of reason
// in rubric's domain, carrying meta; err itself when the status cannot
// be made.
func marked(err error, reason string, meta map[string]string) error {
	st, derr := status.New(codes.FailedPrecondition, err.Error()).WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: errorDomain, Metadata: meta})
	if derr != nil {
		return err
	}
	return st.Err()
}

// markOf finds the mark of reason that marked put on err, with its
// status and metadata; ok is false when err carries none (or ctx ended,
// which remote words).
func markOf(ctx context.Context, err error, reason string) (st *status.Status, meta map[string]string, ok bool) {
	if ctx.Err() != nil {
		return nil, nil, false
	}
	st, isStatus := status.FromError(err)
	if !isStatus || st.Code() != codes.FailedPrecondition {
		return nil, nil, false
	}
	for _, d := range st.Details() {
		if d, isInfo := d.(*errdetails.ErrorInfo); isInfo && d.GetReason() == reason && d.GetDomain() == errorDomain {
			return st, d.GetMetadata(), true
		}
	}
	return nil, nil, false
}

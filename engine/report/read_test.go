package report

import (
	"context"
	"errors"
	"testing"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// A report named on the command line may be /dev/zero: reading it stops
// at the limit instead of taking every byte of memory.
func TestReadStopsAtTheLimit(t *testing.T) {
	heavytest.Later(t)
	for _, max := range []int64{1 << 16, boundedread.DefaultMax} {
		_, err := ReadContext(context.Background(), "/dev/zero", max)
		var tl *boundedread.TooLargeError
		if !errors.As(err, &tl) || tl.Max != max {
			t.Errorf("limit %d: err = %v, want a TooLargeError", max, err)
		}
	}
	if _, err := Read("/dev/zero"); !errors.As(err, new(*boundedread.TooLargeError)) {
		t.Errorf("Read: err = %v, want a TooLargeError at the default limit", err)
	}
}

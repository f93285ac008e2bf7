package transport

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

// TestPermanent: the mark keeps the message and what it wraps, and is
// found through further wrapping.
func TestPermanent(t *testing.T) {
	if Permanent(nil) != nil {
		t.Error("Permanent(nil) is not nil")
	}
	err := fmt.Errorf("reading tools.json: %w", Permanent(fmt.Errorf("cannot read surface: %w", fs.ErrNotExist)))
	if !IsPermanent(err) || !errors.Is(err, fs.ErrNotExist) || err.Error() != "reading tools.json: cannot read surface: file does not exist" {
		t.Errorf("%v: permanent %v, not exist %v", err, IsPermanent(err), errors.Is(err, fs.ErrNotExist))
	}
	if IsPermanent(errors.New("server exited")) {
		t.Error("an unmarked error is permanent")
	}
}

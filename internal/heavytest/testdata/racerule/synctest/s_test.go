package synctest

import (
	"sync/atomic"
	"testing"
)

func TestS(t *testing.T) { var n atomic.Int32; n.Add(1) }

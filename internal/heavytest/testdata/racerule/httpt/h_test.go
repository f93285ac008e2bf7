package httpt

import (
	"net/http/httptest"
	"testing"
)

func TestH(t *testing.T) { _ = httptest.NewRecorder() }

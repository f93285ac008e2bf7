package joined

import (
	"path/filepath"
	"testing"
)

func TestServers(t *testing.T) { _ = filepath.Join("..", "testdata", "servers") }

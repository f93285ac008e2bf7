package npm

import (
	"path/filepath"
	"testing"
)

func TestAxe(t *testing.T) {
	_ = filepath.Join("..", "testdeps", "node_modules", "axe-core", "axe.min.js")
}

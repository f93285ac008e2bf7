package modern

import "testing"

const sdk = "../../testdata/modern"

func TestModern(t *testing.T) { _ = sdk }

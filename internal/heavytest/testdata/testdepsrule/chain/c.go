// Package chain has no tests: it passes on what helper names.
package chain

import "example.com/m/helper"

// Path is helper's.
const Path = helper.Validator

// Package helper has no tests of its own: its importers' tests read
// what it names.
package helper

// Validator is where make testdeps installs a validator.
const Validator = "testdeps/validator/bin"

//go:build !race

package rubrics_test

const raceEnabled = false

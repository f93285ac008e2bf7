//go:build !race

package hugepages

const race = false

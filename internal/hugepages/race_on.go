//go:build race

package hugepages

// race is whether the race detector is built in: it shadows every byte
// the heap maps, so a large block costs it far more than it saves.
const race = true

// Package scratch builds byte strings of unknown length in reused buffers
// and hands out exact-size copies: a writer that appends to a fresh small
// buffer grows it several times (each growth a new allocation, copied and
// cleared), which for many small JSON documents costs more than writing
// them.
package scratch

import (
	"sync"
	"unsafe"
)

// keep is the largest buffer put back for reuse; a larger one is left to
// the collector, so that one huge document does not pin its buffer.
const keep = 1 << 20

var pool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Bytes calls fill with an empty buffer to append to and returns a copy
// of what it appended, exactly as long as it is; fill's error is returned
// as it is, with nil. The buffer is reused by later calls, so fill must
// not keep it.
//
// A document larger than the buffers kept is handed out in the buffer
// fill grew, not copied: that buffer is not reused, and a copy of a
// document of megabytes (a question's input listing every tool) would
// be as many megabytes of fresh memory again.
func Bytes(fill func(dst []byte) ([]byte, error)) ([]byte, error) {
	return build(fill,
		func(b []byte) []byte { return append(make([]byte, 0, len(b)), b...) },
		func(b []byte) []byte { return b[:len(b):len(b)] })
}

// String is Bytes for a caller that wants a string: the one copy is the
// string, where string(Bytes(...)) would copy twice. An error comes
// back with "".
func String(fill func(dst []byte) ([]byte, error)) (string, error) {
	return build(fill,
		func(b []byte) string { return string(b) },
		Owned)
}

// Owned is b as a string without a copy, as strings.Builder hands over
// its own buffer: for a buffer that its writer lets go and nothing
// writes again (a document grown past the buffers kept, a text lowered
// or unescaped into a buffer of its own). b must be on the heap.
func Owned(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// build calls fill with a reused buffer and returns what out copies of
// what it appended, or, when the buffer grew past keep and is let go,
// what own makes of the buffer itself; or the zero T with fill's error.
func build[T any](fill func(dst []byte) ([]byte, error), out, own func([]byte) T) (T, error) {
	bp := pool.Get().(*[]byte)
	b, err := fill((*bp)[:0])
	var v T
	if cap(b) > keep {
		if err == nil {
			v = own(b)
		}
		return v, err
	}
	if err == nil {
		v = out(b)
	}
	*bp = b[:0]
	pool.Put(bp)
	return v, err
}

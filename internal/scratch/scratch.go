// Package scratch builds byte strings of unknown length in reused buffers
// and hands out exact-size copies: a writer that appends to a fresh small
// buffer grows it several times (each growth a new allocation, copied and
// cleared), which for many small JSON documents costs more than writing
// them.
package scratch

import "sync"

// keep is the largest buffer put back for reuse; a larger one is left to
// the collector, so that one huge document does not pin its buffer.
const keep = 1 << 20

var pool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Bytes calls fill with an empty buffer to append to and returns a copy
// of what it appended, exactly as long as it is; fill's error is returned
// as it is, with nil. The buffer is reused by later calls, so fill must
// not keep it.
func Bytes(fill func(dst []byte) ([]byte, error)) ([]byte, error) {
	bp := pool.Get().(*[]byte)
	b, err := fill((*bp)[:0])
	var out []byte
	if err == nil {
		out = make([]byte, len(b))
		copy(out, b)
	}
	if cap(b) <= keep {
		*bp = b[:0]
		pool.Put(bp)
	}
	return out, err
}

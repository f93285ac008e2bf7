package surface

import (
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// A large surface is decoded in parallel: a light scan finds where each
// tool of the tools array starts and ends, then the tools are decoded on
// every core and the rest of the document on its own. Anything the scan
// does not understand, and any decoding error, falls back to decoding the
// whole document in one pass, which also gives the precise error message.

// parallelMin is the number of tools from which splitting pays off.
const parallelMin = 512

// chunks calls fn(lo, hi) over [0, n) cut into one contiguous chunk per
// core, in parallel, once n reaches serialBelow; before that, once, over
// the whole.
func chunks(n, serialBelow int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < serialBelow || workers < 2 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}

// decodeParallel decodes data like json.Unmarshal into an any, or reports
// false when it cannot be sure to do so.
func decodeParallel(data []byte) (any, bool) { return decodeSplit(data, parallelMin) }

func decodeSplit(data []byte, minTools int) (any, bool) {
	sp, ok := splitTools(data)
	if !ok || len(sp.elems) < minTools {
		return nil, false
	}
	tools := make([]any, len(sp.elems))
	var rest any
	var failed atomic.Bool
	// The document without its tools is small; it is decoded meanwhile.
	outerDone := make(chan struct{})
	go func() {
		defer close(outerDone)
		var ok bool
		if rest, ok = decodeOuter(data, sp); !ok {
			failed.Store(true)
		}
	}()
	chunks(len(sp.elems), 0, func(lo, hi int) {
		d := newDecoder()
		for i := lo; i < hi; i++ {
			var ok bool
			if tools[i], ok = d.decodeOrUnmarshal(sp.elems[i]); !ok {
				failed.Store(true)
				return
			}
		}
	})
	<-outerDone
	if failed.Load() {
		return nil, false
	}
	// Put the tools back where the empty array stands.
	if len(sp.path) == 0 {
		return tools, true
	}
	putTools(rest, sp, tools)
	return rest, true
}

// decodeOrUnmarshal decodes data, falling back to encoding/json for what
// the decoder is unsure of; false when data is not valid JSON.
func (d *decoder) decodeOrUnmarshal(data []byte) (any, bool) {
	if v, ok := d.decode(data); ok {
		return v, true
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return nil, false
	}
	return v, true
}

// decodeOuter decodes the document with an empty array where sp's tools
// array stands, and checks that the empty array is where sp says.
func decodeOuter(data []byte, sp split) (any, bool) {
	outer := make([]byte, 0, sp.start+2+len(data)-sp.end)
	outer = append(append(append(outer, data[:sp.start]...), "[]"...), data[sp.end:]...)
	var rest any
	if json.Unmarshal(outer, &rest) != nil {
		return nil, false
	}
	switch doc := rest.(type) {
	case []any:
		return doc, len(sp.path) == 0
	case map[string]any:
		if len(sp.path) == 0 {
			return nil, false
		}
		m := doc
		var ok bool
		for _, key := range sp.path[:len(sp.path)-1] {
			if m, ok = m[key].(map[string]any); !ok {
				return nil, false
			}
		}
		if empty, ok := m[sp.path[len(sp.path)-1]].([]any); !ok || len(empty) != 0 {
			return nil, false
		}
		return doc, true
	}
	return nil, false
}

// putTools puts tools in rest, as decodeOuter checked it, where the
// empty array stands in for them.
func putTools(rest any, sp split, tools []any) {
	m := rest.(map[string]any)
	for _, key := range sp.path[:len(sp.path)-1] {
		m = m[key].(map[string]any)
	}
	m[sp.path[len(sp.path)-1]] = tools
}

// split is where the tools array lies in a document.
type split struct {
	path       []string // member names leading to the array; empty for a top-level array
	start, end int      // the array, brackets included
	elems      [][]byte // each tool's bytes
}

// splitTools finds the tools array of a top-level array, {"tools":[...]}
// or {"result":{"tools":[...]}}. It trusts that the document is valid JSON
// (the decoders check that afterwards) but refuses an object that repeats
// a member name, where decoders may differ on which one counts.
func splitTools(data []byte) (split, bool) {
	i := jsonscan.SkipSpace(data, 0)
	if i >= len(data) {
		return split{}, false
	}
	if data[i] == '[' {
		return arrayElems(data, i, nil)
	}
	return objectTools(data, i, nil)
}

// objectTools scans the object at i for its tools array, directly or
// inside its result member.
func objectTools(data []byte, i int, path []string) (split, bool) {
	if i >= len(data) || data[i] != '{' || len(path) > 1 {
		return split{}, false
	}
	var found split
	var ok bool
	seen := map[string]bool{}
	i = jsonscan.SkipSpace(data, i+1)
	for i < len(data) && data[i] == '"' {
		keyEnd := jsonscan.SkipString(data, i)
		if keyEnd < 0 {
			return split{}, false
		}
		key := string(data[i+1 : keyEnd-1])
		if seen[key] {
			return split{}, false
		}
		seen[key] = true
		v := jsonscan.SkipSpace(data, keyEnd)
		if v >= len(data) || data[v] != ':' {
			return split{}, false
		}
		v = jsonscan.SkipSpace(data, v+1)
		switch {
		case key == "tools" && v < len(data) && data[v] == '[':
			if found, ok = arrayElems(data, v, append(path, key)); !ok {
				return split{}, false
			}
		case key == "result" && len(path) == 0 && v < len(data) && data[v] == '{':
			if found, ok = objectTools(data, v, append(path, key)); !ok {
				return split{}, false
			}
		}
		end := jsonscan.SkipValue(data, v)
		if end < 0 {
			return split{}, false
		}
		i = jsonscan.SkipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i = jsonscan.SkipSpace(data, i+1)
		}
	}
	// Both tools and result.tools: let the whole decode sort it out.
	if seen["tools"] && seen["result"] {
		return split{}, false
	}
	return found, ok
}

// arrayElems splits the array at start into its elements, checking the
// commas between them: the elements are decoded one by one, so nothing
// else would see a missing or extra one.
func arrayElems(data []byte, start int, path []string) (split, bool) {
	sp := split{path: path, start: start}
	i := jsonscan.SkipSpace(data, start+1)
	if i < len(data) && data[i] == ']' {
		sp.end = i + 1
		return sp, true
	}
	for i < len(data) {
		end := jsonscan.SkipValue(data, i)
		if end < 0 {
			return split{}, false
		}
		sp.elems = append(sp.elems, data[i:end])
		i = jsonscan.SkipSpace(data, end)
		if i >= len(data) {
			break
		}
		switch data[i] {
		case ']':
			sp.end = i + 1
			return sp, true
		case ',':
			i = jsonscan.SkipSpace(data, i+1)
		default:
			return split{}, false
		}
	}
	return split{}, false
}

package heuristic

import (
	"bytes"
	"strconv"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// decodeCoherenceInput reads a tdqs.coherence question's input into in,
// to the values encoding/json gives: readCoherenceInput reads the plain
// input TDQS sends without reflection (encoding/json's was a third of
// the coherence question's time at 5,000 tools); anything it is unsure
// of goes to encoding/json.
func decodeCoherenceInput(input []byte, in *tdqs.CoherenceInput) error {
	if readCoherenceInput(input, in) {
		return nil
	}
	*in = tdqs.CoherenceInput{}
	return decode(input, KindCoherence, in)
}

// The names of tdqs.CoherenceInput's and tdqs.CoherenceTool's members,
// which encoding/json also matches in another case.
var (
	serverName, toolCountName, toolsName, shadowName = []byte("server"), []byte("toolCount"), []byte("tools"), []byte("shadowCandidates")
	nameName, descriptionName                        = []byte("name"), []byte("description")
)

// readCoherenceInput fills in from a coherence question's input, which
// jsonscan checks whole, and reports whether it is sure of every value:
// it returns false (and the caller decodes the input whole) for a member
// named in another case than its field, a repeated member, a value of a
// type its field does not take, a tool count that is not an integer, and
// anything jsonscan leaves to encoding/json. Members no field takes (a
// tool's costs) are stepped over, as encoding/json skips them.
func readCoherenceInput(input []byte, in *tdqs.CoherenceInput) bool {
	if !jsonscan.Members(input, nil, nil) {
		return false
	}
	var names nameSet
	for it := (memberIter{obj: input}); ; {
		name, val, more := it.next()
		if !more {
			return true
		}
		if !names.add(name) {
			return false
		}
		ok := true
		switch string(name) {
		case "server":
			ok = readString(val, &in.Server)
		case "toolCount":
			ok = readInt(val, &in.ToolCount)
		case "tools":
			ok = readCoherenceTools(val, in)
		case "shadowCandidates":
			ok = readShadowCandidates(val, in)
		default:
			ok = !foldsTo(name, serverName, toolCountName, toolsName, shadowName)
		}
		if !ok {
			return false
		}
	}
}

// readCoherenceTools reads the tools of a coherence question: null
// leaves them nil, and a null among them is a tool with neither name nor
// description, as encoding/json leaves a struct it reads null into.
func readCoherenceTools(raw []byte, in *tdqs.CoherenceInput) bool {
	if list, ok := listOrNull(raw); !list {
		return ok
	}
	// The tools are counted first: one allocation of them all.
	n := 0
	for it := (itemIter{arr: raw}); ; n++ {
		if _, more := it.next(); !more {
			break
		}
	}
	tools := make([]tdqs.CoherenceTool, n)
	// The names and descriptions are cut out of one copy of the list,
	// and the descriptions the tools point at are one slice: three
	// allocations for the 10,000 strings and pointers of 5,000 tools.
	text := copied{raw: raw, s: string(raw)}
	descs := make([]string, n)
	i := 0
	for it := (itemIter{arr: raw}); ; i++ {
		item, more := it.next()
		if !more {
			break
		}
		switch item[0] {
		case 'n':
			continue
		case '{':
		default:
			return false
		}
		if !readCoherenceTool(item, &tools[i], &descs[i], text) {
			return false
		}
	}
	in.Tools = tools
	return true
}

// copied reads JSON strings of raw as substrings of s, its copy.
type copied struct {
	raw []byte
	s   string
}

// read reads the JSON string val, a part of raw, into v: a substring of
// s when it has no escapes, as stringValue reads it otherwise.
func (t copied) read(val []byte, v *string) bool {
	if bytes.IndexByte(val, '\\') >= 0 {
		var ok bool
		*v, ok = stringValue(val)
		return ok
	}
	// val is raw[at:at+len(val)]: both end where raw's array does.
	at := cap(t.raw) - cap(val)
	*v = t.s[at+1 : at+len(val)-1]
	return true
}

// readOrNull is read for a member that may be null, which leaves v as it
// is: set says whether val was a string, ok whether it was a string read
// or null.
func (t copied) readOrNull(val []byte, v *string) (set, ok bool) {
	switch val[0] {
	case '"':
		return true, t.read(val, v)
	case 'n':
		return false, true
	}
	return false, false
}

// listOrNull says whether raw is a JSON array (list), and whether it is
// one or null (ok): a member read as a list that may be null.
func listOrNull(raw []byte) (list, ok bool) {
	switch raw[0] {
	case '[':
		return true, true
	case 'n':
		return false, true
	}
	return false, false
}

// readCoherenceTool reads one tool of a coherence question, an object of
// text's: its name, and its description into desc, pointed at, left nil
// when it is null.
func readCoherenceTool(raw []byte, t *tdqs.CoherenceTool, desc *string, text copied) bool {
	var names nameSet
	for it := (memberIter{obj: raw}); ; {
		name, val, more := it.next()
		if !more {
			return true
		}
		if !names.add(name) {
			return false
		}
		ok := true
		switch string(name) {
		case "name":
			_, ok = text.readOrNull(val, &t.Name)
		case "description":
			var set bool
			if set, ok = text.readOrNull(val, desc); set {
				t.Description = desc
			}
		default:
			ok = !foldsTo(name, nameName, descriptionName)
		}
		if !ok {
			return false
		}
	}
}

// readShadowCandidates reads the shadowing candidates, a list of strings
// or null (nil).
func readShadowCandidates(raw []byte, in *tdqs.CoherenceInput) bool {
	if list, ok := listOrNull(raw); !list {
		return ok
	}
	l := []string{}
	for it := (itemIter{arr: raw}); ; {
		item, more := it.next()
		if !more {
			break
		}
		var s string
		if item[0] != 'n' && !readString(item, &s) {
			return false
		}
		l = append(l, s)
	}
	in.ShadowCandidates = &l
	return true
}

// readString reads a JSON string into s, as encoding/json reads one into
// a string: null leaves s as it is, anything else is not read.
func readString(raw []byte, s *string) bool {
	switch raw[0] {
	case 'n':
		return true
	case '"':
		v, ok := stringValue(raw)
		*s = v
		return ok
	}
	return false
}

// readInt reads a JSON integer into n, as encoding/json reads one into an
// int: null leaves n as it is; a fraction, an exponent or a number past
// int's range is not read (ParseInt takes none of them).
func readInt(raw []byte, n *int) bool {
	if raw[0] == 'n' {
		return true
	}
	v, err := strconv.ParseInt(string(raw), 10, 0)
	*n = int(v)
	return err == nil
}

// foldsTo reports whether name is one of fields in another case, which
// encoding/json would match to that field and this reader leaves to it.
func foldsTo(name []byte, fields ...[]byte) bool {
	for _, f := range fields {
		if bytes.EqualFold(name, f) {
			return true
		}
	}
	return false
}

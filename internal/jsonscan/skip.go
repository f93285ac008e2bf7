package jsonscan

import "bytes"

// Skipping values by their structure alone, for readers that cut a
// document into pieces (engine/surface's split of a tools array, a
// judge's partial read of a checked input) before or without decoding.

// SkipSpace returns the index of the first byte of data at or after i
// that is not JSON white space.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
		i++
	}
	return i
}

// SkipString returns the index after the JSON string that starts at
// data[i] (its opening quote), or -1 when it does not end.
func SkipString(data []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		// The quote ends the string unless an odd number of backslashes
		// stands before it.
		n := 0
		for b := j - 1; b > i && data[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// structural marks the bytes that matter inside an array or object.
var structural = func() (t [256]bool) {
	for _, c := range []byte(`"{}[]`) {
		t[c] = true
	}
	return t
}()

// SkipValue returns the index after the JSON value that starts at
// data[i], or -1 when it does not end. It finds where the value ends, not
// whether it is valid: a caller reads checked JSON, or checks it after.
func SkipValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return SkipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			c := data[j]
			if !structural[c] {
				continue
			}
			switch c {
			case '"':
				if j = SkipString(data, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			default:
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' && data[j] != ' ' && data[j] != '\n' && data[j] != '\r' && data[j] != '\t' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

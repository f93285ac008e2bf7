package rubric

import (
	"encoding/json"
	"sort"
	"strings"
)

// Entry is one part of a rubric that can move a score, as the digest
// covers it: Key names it (weights.purpose_clarity, checks.typed_params.pass,
// tool.metrics.weighted, questions.tool.system), Value is its canonical text.
type Entry struct {
	Key, Value string
}

// Entries lists what r's digest covers, one entry a leaf, sorted by key.
// It is read off the canonical encoding itself, so nothing the digest
// covers is left out of a diff.
func Entries(r *Rubric) []Entry {
	var tree any
	if err := json.Unmarshal(Canonical(r), &tree); err != nil {
		panic(err) // Canonical writes JSON
	}
	var out []Entry
	flatten("", tree, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// flatten walks the canonical encoding: a list of named objects is keyed
// by their names, a list of [name, value] pairs by the names.
func flatten(path string, v any, out *[]Entry) {
	join := func(k string) string {
		if k == "" {
			k = "-"
		}
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		if path == "" {
			delete(x, "digest") // the encoding's version, not the rubric's
		}
		for k, e := range x {
			flatten(join(k), e, out)
		}
		return
	case []any:
		switch {
		case len(x) > 0 && all(x, isNamed):
			for _, e := range x {
				m := e.(map[string]any)
				name := m["name"].(string)
				delete(m, "name")
				flatten(join(name), m, out)
			}
			return
		case len(x) > 0 && all(x, isPair):
			for _, e := range x {
				p := e.([]any)
				flatten(join(p[0].(string)), p[1], out)
			}
			return
		}
	case string:
		*out = append(*out, Entry{path, x})
		return
	}
	b, _ := json.Marshal(v)
	*out = append(*out, Entry{path, string(b)})
}

func all(xs []any, f func(any) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

func isNamed(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m["name"].(string)
	return ok
}

func isPair(v any) bool {
	p, ok := v.([]any)
	if !ok || len(p) != 2 {
		return false
	}
	_, ok = p[0].(string)
	return ok
}

// Change is one difference between two rubrics: Old is "" when the part
// is new, New is "" when it is gone.
type Change struct {
	Key, Old, New string
	// Follows is the key of the change this one comes with, when it is
	// no edit of its own: a check's points that are its weight of the
	// same name (checks.NAME.points follows weights.NAME).
	Follows string
}

// Kind says what happened to the part: "added", "removed" or "changed".
func (c Change) Kind() string {
	switch {
	case c.Old == "":
		return "added"
	case c.New == "":
		return "removed"
	}
	return "changed"
}

// Diff lists every difference between a and b that their digests cover,
// by key; none when the digests are equal.
func Diff(a, b *Rubric) []Change {
	if a.Digest != "" && a.Digest == b.Digest {
		return nil
	}
	old := map[string]string{}
	for _, e := range Entries(a) {
		old[e.Key] = e.Value
	}
	var out []Change
	for _, e := range Entries(b) {
		if v, ok := old[e.Key]; !ok {
			out = append(out, Change{Key: e.Key, New: e.Value})
		} else if v != e.Value {
			out = append(out, Change{Key: e.Key, Old: v, New: e.Value})
		}
		delete(old, e.Key)
	}
	for k, v := range old {
		out = append(out, Change{Key: k, Old: v})
	}
	sort.Slice(out, func(i, j int) bool { return diffOrder(out[i].Key) < diffOrder(out[j].Key) })
	weights := map[string]Change{}
	for _, c := range out {
		if name, ok := strings.CutPrefix(c.Key, "weights."); ok {
			weights[name] = c
		}
	}
	for i, c := range out {
		// A check with a weight of its name has no points of its own
		// (the loader refuses both): its points are the weight's.
		name, ok := strings.CutPrefix(c.Key, "checks.")
		if !ok {
			continue
		}
		if name, ok = strings.CutSuffix(name, ".points"); !ok {
			continue
		}
		if w, ok := weights[name]; ok && w.Old == c.Old && w.New == c.New {
			out[i].Follows = w.Key
		}
	}
	return out
}

// diffOrder puts weights first, as an author reads a diff, then the rest
// by key.
func diffOrder(k string) string {
	if strings.HasPrefix(k, "weights.") {
		return "0" + k
	}
	return "1" + k
}

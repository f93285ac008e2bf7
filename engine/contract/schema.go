package contract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// dir is which way a schema faces: what a caller sends (input) or what
// the tool promises to return (output).
type dir int

const (
	dirIn dir = iota
	dirOut
)

// narrowClass is the class of a change that makes a schema accept less:
// breaking for an input, compatible for an output (it promises more).
func (dr dir) narrowClass() Class {
	if dr == dirIn {
		return Breaking
	}
	return Compatible
}

// widenClass is the class of a change that makes a schema accept more.
func (dr dir) widenClass() Class {
	if dr == dirIn {
		return Compatible
	}
	return Breaking
}

// lowerBounds and upperBounds are the numeric keywords that bound a
// value from below and from above.
var (
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)

// wording are the keywords that describe and constrain nothing.
var wording = []string{"title", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id", "$anchor"}

// asSchema reads a schema value: absent and true accept anything (an
// empty object); false and anything that is not an object are not read
// keyword by keyword (ok false).
func asSchema(v any, present bool) (map[string]any, bool) {
	if !present || v == true {
		return map[string]any{}, true
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// schema appends the changes from the schema bv to hv at path.
func (d *differ) schema(dr dir, path string, bv, hv any, bok, hok bool) {
	if bok == hok && equal(bv, hv) {
		return
	}
	bm, bread := asSchema(bv, bok)
	hm, hread := asSchema(hv, hok)
	if !bread || !hread {
		d.whole(dr, path, bv, hv, bok, hok)
		return
	}
	d.types(dr, path, bm, hm)
	d.enum(dr, path, bm, hm)
	d.properties(dr, path, bm, hm)
	for _, k := range unionKeys(bm, hm) {
		b, bk := bm[k]
		h, hk := hm[k]
		if bk == hk && equal(b, h) {
			continue
		}
		p := path + "/" + jsonpointer.Escape(k)
		switch {
		case k == "type" || k == "enum" || k == "const" || k == "properties" || k == "required":
			// Read above.
		case k == "additionalProperties" || k == "items" && !isList(b) && !isList(h):
			d.schema(dr, p, b, h, bk, hk)
		case slices.Contains(lowerBounds, k):
			d.bound(dr, p, k, b, h, bk, hk, true)
		case slices.Contains(upperBounds, k):
			d.bound(dr, p, k, b, h, bk, hk, false)
		case k == "pattern":
			switch {
			case !bk:
				d.add(dr.narrowClass(), "pattern-added", p, nil, h, false, true, subject(dr, path)+" must now match the pattern "+show(h, true))
			case !hk:
				d.add(dr.widenClass(), "pattern-removed", p, b, nil, true, false, subject(dr, path)+" no longer has to match a pattern")
			default:
				d.add(Breaking, "pattern-changed", p, b, h, true, true, subject(dr, path)+" must now match "+show(h, true)+" instead of "+show(b, true))
			}
		case k == "anyOf" || k == "oneOf" || k == "allOf":
			d.alternatives(dr, p, k, b, h, bk, hk)
		case k == "$defs" || k == "definitions":
			d.definitions(dr, p, b, h, bk, hk)
		case k == "description":
			d.description(p, b, h, bk, hk, "description of "+subject(dr, path))
		case k == "default":
			d.add(Risky, "default-changed", p, b, h, bk, hk, "default of "+subject(dr, path)+" "+show(b, bk)+" → "+show(h, hk)+": a call that leaves it out now means something else")
		case slices.Contains(wording, k):
			d.add(Compatible, strings.ToLower(strings.TrimPrefix(k, "$"))+"-changed", p, b, h, bk, hk, "keyword "+quote(k)+" of "+subject(dr, path)+" changed")
		case strings.HasPrefix(k, "x-"):
			d.add(Compatible, "extension-changed", p, b, h, bk, hk, "extension keyword "+quote(k)+" of "+subject(dr, path)+" changed")
		default:
			d.add(Risky, "keyword-changed", p, b, h, bk, hk, "keyword "+quote(k)+" of "+subject(dr, path)+" changed ("+show(b, bk)+" → "+show(h, hk)+"): its effect on callers is not judged here, read it")
		}
	}
}

// whole compares two schemas of which one is false (accepts nothing) or
// not a schema at all.
func (d *differ) whole(dr dir, path string, bv, hv any, bok, hok bool) {
	switch {
	case hok && hv == false:
		d.add(dr.narrowClass(), "schema-closed", path, bv, hv, bok, true, subject(dr, path)+" now accepts no value")
	case bok && bv == false:
		d.add(dr.widenClass(), "schema-opened", path, bv, hv, true, hok, subject(dr, path)+" now accepts values, where it accepted none")
	default:
		d.add(Risky, "schema-changed", path, bv, hv, bok, hok, subject(dr, path)+" is not a JSON Schema object on one side: "+show(bv, bok)+" → "+show(hv, hok))
	}
}

// typeSet reads the type keyword: the types, or ok false when it is
// absent (any type) or not a type name or list of them.
func typeSet(m map[string]any) (set []string, present, ok bool) {
	v, present := m["type"]
	if !present {
		return nil, false, true
	}
	switch t := v.(type) {
	case string:
		return []string{t}, true, true
	case []any:
		for _, e := range t {
			s, isString := e.(string)
			if !isString {
				return nil, true, false
			}
			set = append(set, s)
		}
		return set, true, true
	}
	return nil, true, false
}

// covers is whether every value of the types b is one of the types a
// (an integer is a number).
func covers(a, b []string) bool {
	for _, t := range b {
		if !slices.Contains(a, t) && !(t == "integer" && slices.Contains(a, "number")) {
			return false
		}
	}
	return true
}

func (d *differ) types(dr dir, path string, bm, hm map[string]any) {
	bv, hv := bm["type"], hm["type"]
	if equal(bv, hv) {
		return
	}
	bs, bp, bok := typeSet(bm)
	hs, hp, hok := typeSet(hm)
	p := path + "/type"
	if !bok || !hok {
		d.add(Risky, "keyword-changed", p, bv, hv, bp, hp, "type of "+subject(dr, path)+" changed, and one side's is not a type name or a list of them")
		return
	}
	if bp == hp && bp && len(bs) == 0 && len(hs) == 0 {
		return
	}
	hCovers := !hp || bp && covers(hs, bs)
	bCovers := !bp || hp && covers(bs, hs)
	msg := "type of " + subject(dr, path) + " " + show(bv, bp) + " → " + show(hv, hp)
	switch {
	case hCovers && bCovers:
		d.add(Compatible, "type-rewritten", p, bv, hv, bp, hp, msg+", the same types")
	case hCovers:
		d.add(dr.widenClass(), "type-widened", p, bv, hv, bp, hp, msg+": widened")
	case bCovers:
		d.add(dr.narrowClass(), "type-narrowed", p, bv, hv, bp, hp, msg+": narrowed")
	default:
		d.add(Breaking, "type-changed", p, bv, hv, bp, hp, msg)
	}
}

func (d *differ) enum(dr dir, path string, bm, hm map[string]any) {
	if b, h := bm["const"], hm["const"]; !equal(b, h) {
		_, bk := bm["const"]
		_, hk := hm["const"]
		p := path + "/const"
		switch {
		case !bk:
			d.add(dr.narrowClass(), "const-added", p, nil, h, false, true, subject(dr, path)+" must now be "+show(h, true))
		case !hk:
			d.add(dr.widenClass(), "const-removed", p, b, nil, true, false, subject(dr, path)+" no longer has to be "+show(b, true))
		default:
			d.add(Breaking, "const-changed", p, b, h, true, true, subject(dr, path)+" must now be "+show(h, true)+" instead of "+show(b, true))
		}
	}
	b, bk := bm["enum"]
	h, hk := hm["enum"]
	if bk == hk && equal(b, h) {
		return
	}
	p := path + "/enum"
	bl, blist := b.([]any)
	hl, hlist := h.([]any)
	switch {
	case bk && !blist || hk && !hlist:
		d.add(Risky, "keyword-changed", p, b, h, bk, hk, "enum of "+subject(dr, path)+" changed, and one side's is not a list")
	case !bk:
		d.add(dr.narrowClass(), "enum-added", p, nil, h, false, true, subject(dr, path)+" now accepts only "+show(h, true))
	case !hk:
		d.add(dr.widenClass(), "enum-removed", p, b, nil, true, false, subject(dr, path)+" is no longer limited to "+show(b, true))
	default:
		for i, v := range bl {
			if !slices.ContainsFunc(hl, func(w any) bool { return equal(v, w) }) {
				d.add(dr.narrowClass(), "enum-value-removed", p+"/"+strconv.Itoa(i), v, nil, true, false, "value "+show(v, true)+" of "+subject(dr, path)+" removed")
			}
		}
		for i, v := range hl {
			if !slices.ContainsFunc(bl, func(w any) bool { return equal(v, w) }) {
				d.add(dr.widenClass(), "enum-value-added", p+"/"+strconv.Itoa(i), nil, v, false, true, "value "+show(v, true)+" of "+subject(dr, path)+" added")
			}
		}
	}
}

// required reads the required keyword's names.
func required(m map[string]any) []string {
	l, _ := m["required"].([]any)
	var out []string
	for _, v := range l {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (d *differ) properties(dr dir, path string, bm, hm map[string]any) {
	b, bk := bm["properties"]
	h, hk := hm["properties"]
	bp, bmap := b.(map[string]any)
	hp, hmap := h.(map[string]any)
	if bk && !bmap || hk && !hmap {
		if !equal(b, h) || bk != hk {
			d.add(Risky, "keyword-changed", path+"/properties", b, h, bk, hk, "properties of "+subject(dr, path)+" changed, and one side's are not an object")
		}
		return
	}
	breq, hreq := required(bm), required(hm)
	field := "parameter "
	if dr == dirOut {
		field = "output field "
	}
	for _, k := range unionKeys(bp, hp) {
		bs, bin := bp[k]
		hs, hin := hp[k]
		p := path + "/properties/" + jsonpointer.Escape(k)
		name := field + quote(join(path, k))
		switch {
		case !hin && dr == dirIn:
			d.add(Breaking, "parameter-removed", p, bs, nil, true, false, name+" removed")
		case !hin:
			d.add(Breaking, "output-field-removed", p, bs, nil, true, false, name+" removed: the result no longer promises it")
		case !bin && dr == dirIn && slices.Contains(hreq, k):
			d.add(Breaking, "required-parameter-added", p, nil, hs, false, true, "required "+name+" added")
		case !bin && dr == dirIn:
			d.add(Compatible, "parameter-added", p, nil, hs, false, true, "optional "+name+" added")
		case !bin:
			d.add(Compatible, "output-field-added", p, nil, hs, false, true, name+" added")
		default:
			d.schema(dr, p, bs, hs, true, true)
		}
	}
	// A name newly required, or no longer, whose property was added or
	// removed is told above.
	for i, k := range hreq {
		if slices.Contains(breq, k) || hasKey(hp, k) && !hasKey(bp, k) {
			continue
		}
		p := path + "/required/" + strconv.Itoa(i)
		if dr == dirIn {
			d.add(Breaking, "parameter-required", p, nil, k, false, true, field+quote(join(path, k))+" is now required")
		} else {
			d.add(Compatible, "output-field-required", p, nil, k, false, true, field+quote(join(path, k))+" is now always returned")
		}
	}
	for i, k := range breq {
		if slices.Contains(hreq, k) || hasKey(bp, k) && !hasKey(hp, k) {
			continue
		}
		p := path + "/required/" + strconv.Itoa(i)
		if dr == dirIn {
			d.add(Compatible, "parameter-optional", p, k, nil, true, false, field+quote(join(path, k))+" is no longer required")
		} else {
			d.add(Breaking, "output-field-optional", p, k, nil, true, false, field+quote(join(path, k))+" is no longer promised: the result may leave it out")
		}
	}
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// bound compares a numeric bound; lower says it bounds from below.
func (d *differ) bound(dr dir, p, k string, b, h any, bk, hk, lower bool) {
	bn, bnum := b.(float64)
	hn, hnum := h.(float64)
	if bk && !bnum || hk && !hnum {
		d.add(Risky, "keyword-changed", p, b, h, bk, hk, "keyword "+quote(k)+" changed, and one side's is not a number")
		return
	}
	tighter := !bk || hk && (lower && hn > bn || !lower && hn < bn)
	msg := quote(k) + " " + show(b, bk) + " → " + show(h, hk)
	if tighter {
		d.add(dr.narrowClass(), "bound-tightened", p, b, h, bk, hk, msg)
	} else {
		d.add(dr.widenClass(), "bound-loosened", p, b, h, bk, hk, msg)
	}
}

// alternatives compares anyOf, oneOf (a value matches one of them) and
// allOf (a value matches all of them), part by part: a part is kept when
// the other side has an equal one.
func (d *differ) alternatives(dr dir, p, k string, b, h any, bk, hk bool) {
	bl, blist := b.([]any)
	hl, hlist := h.([]any)
	if bk && !blist || hk && !hlist {
		d.add(Risky, "keyword-changed", p, b, h, bk, hk, "keyword "+quote(k)+" changed, and one side's is not a list")
		return
	}
	// Losing an alternative narrows; losing an allOf part widens.
	lose, gain := dr.narrowClass(), dr.widenClass()
	loseKind, gainKind := "alternative-removed", "alternative-added"
	if k == "allOf" {
		lose, gain = gain, lose
		loseKind, gainKind = "all-of-part-removed", "all-of-part-added"
	}
	if k != "allOf" && (!bk || !hk) {
		// An anyOf that appears or goes is a constraint, not a choice.
		lose, gain = gain, lose
	}
	for i, v := range bl {
		if !slices.ContainsFunc(hl, func(w any) bool { return equal(v, w) }) {
			d.add(lose, loseKind, p+"/"+strconv.Itoa(i), v, nil, true, false, quote(k)+" part "+strconv.Itoa(i)+" removed or changed")
		}
	}
	for i, v := range hl {
		if !slices.ContainsFunc(bl, func(w any) bool { return equal(v, w) }) {
			d.add(gain, gainKind, p+"/"+strconv.Itoa(i), nil, v, false, true, quote(k)+" part "+strconv.Itoa(i)+" added or changed")
		}
	}
}

// definitions compares $defs (or definitions): those on both sides as
// schemas facing the same way.
func (d *differ) definitions(dr dir, p string, b, h any, bk, hk bool) {
	bm, bmap := b.(map[string]any)
	hm, hmap := h.(map[string]any)
	if bk && !bmap || hk && !hmap {
		d.add(Risky, "keyword-changed", p, b, h, bk, hk, "definitions changed, and one side's are not an object")
		return
	}
	for _, k := range unionKeys(bm, hm) {
		bs, bin := bm[k]
		hs, hin := hm[k]
		q := p + "/" + jsonpointer.Escape(k)
		switch {
		case !hin:
			d.add(Risky, "definition-removed", q, bs, nil, true, false, "definition "+quote(k)+" removed")
		case !bin:
			d.add(Compatible, "definition-added", q, nil, hs, false, true, "definition "+quote(k)+" added")
		default:
			d.schema(dr, q, bs, hs, true, true)
		}
	}
}

// subject names the schema at path for a message: the parameter or
// output field it is, or else the path.
func subject(dr dir, path string) string {
	var names []string
	toks := strings.Split(path, "/")
	for i := 1; i+1 < len(toks); i++ {
		if toks[i] == "properties" {
			names = append(names, jsonpointer.Unescape(toks[i+1]))
			i++
		}
	}
	if len(names) == 0 || !strings.HasSuffix(path, "/properties/"+jsonpointer.Escape(names[len(names)-1])) {
		if len(names) == 0 {
			if dr == dirIn {
				return "the input schema"
			}
			return "the output schema"
		}
		return "the schema at " + path
	}
	if dr == dirIn {
		return "parameter " + quote(strings.Join(names, "."))
	}
	return "output field " + quote(strings.Join(names, "."))
}

// join names the property k of the object schema at path, with the
// names of the properties it is nested in.
func join(path, k string) string {
	var names []string
	toks := strings.Split(path, "/")
	for i := 1; i+1 < len(toks); i++ {
		if toks[i] == "properties" {
			names = append(names, jsonpointer.Unescape(toks[i+1]))
			i++
		}
	}
	return strings.Join(append(names, k), ".")
}

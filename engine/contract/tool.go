package contract

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// differ collects the changes of one tool pair.
type differ struct {
	tool, headTool string
	out            []Change
}

func (d *differ) add(class Class, kind, path string, before, after any, hasBefore, hasAfter bool, msg string) {
	c := Change{Class: class, Kind: kind, Tool: d.tool, HeadTool: d.headTool, Path: path, Message: msg}
	if hasBefore {
		c.Before = value(before)
	}
	if hasAfter {
		c.After = value(after)
	}
	d.out = append(d.out, c)
}

// tool appends the changes from b to h, which a rename may have given
// another name (headName, "" when it has not).
func tool(out []Change, name, headName string, b, h surface.Tool) []Change {
	if b.Hash == h.Hash && headName == "" {
		return out
	}
	d := &differ{tool: name, headTool: headName, out: out}
	keys := unionKeys(b.Def, h.Def)
	for _, k := range keys {
		bv, bok := b.Def[k]
		hv, hok := h.Def[k]
		if bok == hok && equal(bv, hv) {
			continue
		}
		path := "/" + jsonpointer.Escape(k)
		switch k {
		case "name":
			// Names are matched (or renamed) before this.
		case "inputSchema":
			d.schema(dirIn, path, bv, hv, bok, hok)
		case "outputSchema":
			switch {
			case !bok:
				d.add(Compatible, "output-schema-added", path, nil, hv, false, true, "output schema added")
			case !hok:
				d.add(Breaking, "output-schema-removed", path, bv, nil, true, false, "output schema removed: the result no longer promises its fields")
			default:
				d.schema(dirOut, path, bv, hv, bok, hok)
			}
		case "annotations":
			d.annotations(path, bv, hv, bok, hok)
		case "description":
			d.description(path, bv, hv, bok, hok, "tool description")
		default:
			d.add(Compatible, "member-changed", path, bv, hv, bok, hok, "tool member "+quote(k)+" changed")
		}
	}
	return d.out
}

// hint is an annotation whose weakening is risky.
type hint struct {
	key, kind, msg string
	// promise is whether true is what the hint promises.
	promise bool
}

// hints are the annotations whose weakening is risky: for a promise
// ("true" is the promise), weakening is true becoming anything else;
// for a warning ("false" is the promise), it is true appearing or false
// going.
var hints = []hint{
	{"readOnlyHint", "read-only-removed", "the tool no longer promises to be read-only", true},
	{"idempotentHint", "idempotent-removed", "the tool no longer promises to be idempotent", true},
	{"destructiveHint", "destructive-added", "the tool may now be destructive", false},
	{"openWorldHint", "open-world-added", "the tool may now reach an open world", false},
}

func (d *differ) annotations(path string, bv, hv any, bok, hok bool) {
	bm, bmap := bv.(map[string]any)
	hm, hmap := hv.(map[string]any)
	if bok && !bmap || hok && !hmap {
		d.add(Risky, "annotations-changed", path, bv, hv, bok, hok, "annotations changed, and one side's are not an object")
		return
	}
	for _, k := range unionKeys(bm, hm) {
		b, bok := bm[k]
		h, hok := hm[k]
		if bok == hok && equal(b, h) {
			continue
		}
		p := path + "/" + jsonpointer.Escape(k)
		i := slices.IndexFunc(hints, func(x hint) bool { return x.key == k })
		if i >= 0 {
			x := hints[i]
			weaker := x.promise && b == true && h != true ||
				!x.promise && (h == true && b != true || b == false && h != false)
			if weaker {
				d.add(Risky, x.kind, p, b, h, bok, hok, x.msg+" ("+k+" "+show(b, bok)+" → "+show(h, hok)+")")
				continue
			}
		}
		d.add(Compatible, "annotation-changed", p, b, h, bok, hok, "annotation "+quote(k)+" "+show(b, bok)+" → "+show(h, hok))
	}
}

// description reports a changed description: information when its
// side-effect wording changed, compatible otherwise.
func (d *differ) description(path string, bv, hv any, bok, hok bool, what string) {
	bs, _ := bv.(string)
	hs, _ := hv.(string)
	bw, hw := sideEffects(bs), sideEffects(hs)
	if !slices.Equal(bw, hw) {
		d.add(Information, "side-effect-wording-changed", path, bv, hv, bok, hok,
			what+" now says "+words(hw)+" about side effects, where it said "+words(bw))
		return
	}
	d.add(Compatible, "description-changed", path, bv, hv, bok, hok, what+" changed")
}

// effectStems are the starts of words that say what a tool does to the
// world, or that it does nothing to it.
var effectStems = []string{
	"append", "archiv", "charg", "creat", "delet", "deploy", "destroy", "destruct", "drop", "eras",
	"execut", "idempot", "insert", "irrevers", "kill", "modif", "move", "mutat", "overwrit", "patch",
	"paid", "payment", "permanent", "publish", "purg", "readonly", "read-only", "remov", "renam", "replac", "revok",
	"send", "side-effect", "terminat", "truncat", "updat", "upload", "writ", "wrot",
}

// sideEffects lists the effect stems s uses, sorted, once each.
func sideEffects(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-'
	}) {
		for _, st := range effectStems {
			if strings.HasPrefix(w, st) && !slices.Contains(out, st) {
				out = append(out, st)
			}
		}
	}
	slices.Sort(out)
	return out
}

func words(ws []string) string {
	if len(ws) == 0 {
		return "nothing"
	}
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = strconv.Quote(w + "…")
	}
	return strings.Join(q, ", ")
}

// unionKeys are the keys of a and b, sorted.
func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// equal is whether two decoded JSON values are the same value.
func equal(a, b any) bool { return bytes.Equal(surface.Canonical(a), surface.Canonical(b)) }

func quote(s string) string { return strconv.Quote(s) }

// show is a value for a message: its JSON, or "absent".
func show(v any, ok bool) string {
	if !ok {
		return "absent"
	}
	s := []rune(string(surface.Canonical(v)))
	if len(s) > 60 {
		return string(s[:57]) + "..."
	}
	return string(s)
}

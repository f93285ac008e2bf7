package lang

import (
	"fmt"
	"io"
	"strings"
)

// FunctionDoc documents one function (or a family of them) of the
// language: how it is called, and what it gives. Functions is the one
// place the language's functions are described: rubric rubrics functions
// prints it, and the README's table is generated from it
// (TestReadmeFunctionTable fails when they differ).
type FunctionDoc struct {
	// Call is how the function is written, in Markdown: `sum(list)`.
	Call string
	// Doc says what it gives, in Markdown.
	Doc string
}

// Functions are the language's functions beyond CEL's standard library
// and macros, in the order the README lists them.
var Functions = []FunctionDoc{
	{Call: "`num(x)`", Doc: "`x` (string such as `'1373/15'`, int, double) as an exact number"},
	{Call: "`sum(list)`, `mean(list)`, `median(list)`, `min(list)`, `max(list)`", Doc: "exact; `mean`, `median`, `min`, `max` of an empty list are errors"},
	{Call: "`int(x)`", Doc: "an exact number `x` that is whole as an int (CEL's `int` for the language's numbers): `int(sum(counts))` counts as `size` does; an error for a fraction"},
	{Call: "`clamp(x, lo, hi)`", Doc: "`x` limited to `[lo, hi]`"},
	{Call: "`round(x, digits)`", Doc: "half away from zero: `round(2.85, 1) == 2.9`"},
	{Call: "`efficiency(value, ideal, unacceptable)`", Doc: "1 at or better than `ideal`, 0 at or worse than `unacceptable`, linear between"},
	{Call: "`params(tool)`", Doc: "the entries of `inputSchema.properties`, sorted by name, as `{name, schema, required}`; local `$ref`s (`#/$defs/...`, `#/definitions/...`, any JSON pointer) resolved through the chain with a cycle guard, keys beside a `$ref` overriding the target's"},
	{Call: "`required_subtree(schema)`", Doc: "what a caller must build for the smallest valid call of an input schema, as `{fields, depth, unions}`: `fields` counts the required properties met (a container once, then each of its own), the widest branch of a `oneOf`/`anyOf`, every branch of an `allOf`; `depth` is 1 for an object of scalars, one more per required object or array of objects, the deepest branch of `allOf`/`oneOf`/`anyOf`/`not`, at most 10; `unions` sums branches less one over each `oneOf`/`anyOf`, a single branch beside `null` (an optional value) being no choice; local `$ref`s followed, one met again on its own path a scalar; all 0 for a schema without properties: what a call costs to build"},
	{Call: "`byte_size(s)`", Doc: "the UTF-8 bytes of `s` (`size` counts characters): `byte_size(canonical_json(tool))` is a definition's weight on the wire"},
	{Call: "`schema_types(schema)`", Doc: "the names in `type` (a string, or the strings of an array)"},
	{Call: "`typed(schema)`", Doc: "`type`, `const` or a non-empty `enum`, or `anyOf`/`oneOf` whose every branch is typed"},
	{Call: "`described(schema)`", Doc: "the schema has a description with non-blank text, or is a union (`anyOf`/`oneOf`) whose every branch that admits more than null has one, or an `allOf` one of whose branches has one (pydantic's `Optional`, zod's `nullable`)"},
	{Call: "`nonblank(x)`", Doc: "`x` is a string with non-space content"},
	{Call: "`nonempty(x)`", Doc: "`x` is a non-empty string, list or map"},
	{Call: "`is_object(x)`, `is_list(x)`, `is_string(x)`", Doc: "the JSON kind of `x`"},
	{Call: "`band(x, grades)`", Doc: "the letter of the highest band `x` reaches (`band(3.3, {'A': 3.5, 'B': 3.0, 'C': 0}) == 'B'`); null for null"},
	{Call: "`canonical_json(x)`, `sha256(s)`", Doc: "`x` as compact JSON with sorted keys; the hex sha256 of a string: `sha256(canonical_json(tool))` is a hash of a definition that key order and white space do not change"},
	{Call: "`lower(s)`", Doc: "`s` in lower case, in every script (`lowerAscii` changes only A-Z)"},
	{Call: "`schema_errors(value, schema)`", Doc: "what is wrong with `value` under a JSON Schema (santhosh-tekuri/jsonschema, drafts 4 to 2020-12), one string per failure as `/path: message`; empty when valid; a schema that does not compile, or holds more than 10,000 objects and booleans (compiling may cost their square), is one entry, never a failed run; nothing is fetched"},
	{Call: "`unique_by(items, keys)`", Doc: `the items whose key (the string at the same index) has not occurred before, in order, in linear time`},
	{Call: "`index_by(items, keys)`", Doc: `a map from each key to the first item with it, for lookups by name in one step`},
	{Call: "`group_by(items, keys)`", Doc: "a map from each key to every item with it, in order: the tools that share a name across servers, in one step"},
	{Call: "`omit(map, keys)`", Doc: "the map without the members named: a value measured without what a caller added to it"},
	{Call: "`token_count(s, encoding)`", Doc: "the tokens of `s` in `o200k_base`, `cl100k_base`, `p50k_base` or `r50k_base`, exactly as OpenAI's tokenizer splits it (the published tables are embedded; nothing is downloaded): `token_count(canonical_json(tool), 'o200k_base')` is what a definition costs a model's context"},
	{Call: "`find_all(s, re)`", Doc: "every non-overlapping match of the RE2 expression `re` in `s`, leftmost first, as `{start, end, text}`; `start` and `end` (exclusive) count characters (code points, as `size` and `substring` do), not bytes"},
	{Call: "`find_all_each(s, res)`", Doc: "`find_all` of each expression of the list `res` in `s`, as `{pattern, start, end, text}` where `pattern` is the expression's index: one call for many cues. A text that lacks what every match of an expression needs (one of its phrases, case and runs of white space aside; a run or a count of the characters it repeats) is skipped without running it"},
	{Call: "`find_all_in(ss, re)`, `find_all_each_in(ss, res)`, `find_runs_in(ss, chars, n)`", Doc: "the same over every string of the list `ss`, in order, each match with `index`, its string's place in `ss`: one call for all the strings of a tool, where a `map` over them calls once a string"},
	{Call: "`find_all_in(ss, re, names)`, `find_all_in(ss, re, names, except)`", Doc: "`find_all_in(ss, re)` keeping only the matches whose text is a key of the map `names` (and not of the map `except`): the mentions of known names in every string of a tool in one call, where a `filter` over every word is a comprehension as long as the text"},
	{Call: "`find_all_each_in(ss, res, folds)`, `fold(s, folds)`", Doc: "`find_all_each_in` matched on a folded copy of each string, each match's `start`, `end` and `text` those of the original characters it covers; `fold` is the copy. `folds` lists `'nfkc'` (Unicode NFKC: full-width letters, mathematical alphanumerics and ligatures as the plain letters they show) and `'confusable'` (in a word whose letters mix Latin with another script, each letter of the other script whose TR39 prototype, of its lower case or else itself, is one ASCII letter, as that letter: `Ignоre` with a Cyrillic `о` reads `Ignore`; a word of one script is left alone), applied in that order"},
	{Call: "`find_first_each_in(ss, res, n)`, `find_first_each_in(ss, res, folds, n)`", Doc: "`{count, matches}`: `count` is the number of matches `find_all_each_in` (with `folds`, when given) finds, and `matches` the first `n + 1` of them, in its order: a formula that goes through the matches goes through at most `n + 1`, however many a text holds, and still tells more than `n` from `n`"},
	{Call: "`tally_each_in(ss, res, tests, n)`, `tally_each_in(ss, res, folds, tests, n)`, `tally_each_in(ss, res, folds, tests, n, labels, where)`", Doc: "the matches of `find_all_each_in` (with `folds`, when given) counted rather than listed: `{count, groups, matches}`. `tests` holds one list a pattern of `res` (empty for none), each test `{'matches': re}` (the match's text holds a match of `re`, or of any expression of `re` when it is a list), `{'tokens': re, 'in': ss}` (a match of `re` in the match's text, as `find_all` gives them, is one of the strings `ss`: a set looked up once a token, where an expression of every string of a long list would be slow to compile and to run), `{'inside': i}` (the match starts within a match of pattern `i` in the same string), `{'before': re, 'within': k}` (the `k` characters of the string before the match, 1 to 32, hold a match of `re`) or `{'decodes': 'hex'}` or `'base64'`, with or without `'matches': re` (the match's text decodes as `decode_hex` or `decode_base64` does to text, which holds a match of `re`); with `labels` (a string a string of `ss`) and `where` (at most 16 expressions), the strings whose labels match the same expressions of `where` share their groups, each group with `where` (a bool an expression) and the `index` of its first string: tens of thousands of strings with a match each are a few groups; `groups` has one `{index, pattern, passed, count}` for each string, pattern and outcome of that pattern's tests (`passed`, a bool a test), in the order of their first matches; `matches` the first `n + 1` matches of each group, in `find_all_each_in`'s order, each with `passed` and `group`, its group's place. A formula weighs every match by its group, so it goes through a few groups and at most `n + 1` matches a group however many a text holds: exact counts by severity in linear time"},
	{Call: "`find_runs(s, chars, n)`", Doc: "every maximal run of at least `n` consecutive characters of `s` that are all in `chars`, as `{start, end, text}` (character offsets): base64 or hex payloads, in linear time"},
	{Call: "`texts(x)`, `texts(x, keys)`", Doc: "every string of a JSON value, keys and values, as `{path, text, key}`: `path` is the JSON pointer (`/inputSchema/properties/q/description`), `key` true for an object's key; keys in sorted order, depth first; the objects' keys left out when `keys` is false"},
	{Call: "`string_values(x)`", Doc: "the text of every string of a JSON value that is not a key, in the order of `texts(x, false)`, as a list of strings"},
	{Call: "`char_script(s)`, `char_category(s)`", Doc: "the Unicode script (`Latin`, `Cyrillic`, `Common`, `Inherited`, `Unknown`) and the two-letter general category (`Lu`, `Cf`, `Zs`, `Cn` ...) of the first character of `s`; `''` for an empty `s`"},
	{Call: "`scripts(s)`", Doc: "the distinct scripts of the characters of `s` in order of first occurrence, without `Common` and `Inherited`: `scripts('reаd')` with a Cyrillic `а` is `['Latin', 'Cyrillic']`"},
	{Call: "`skeleton(s)`", Doc: `the confusable skeleton of Unicode TR39 (confusables.txt of Unicode 13): strings a reader may take for one another have the same skeleton; for comparing, not for showing`},
	{Call: "`skeletons(ss)`", Doc: "`skeleton` of each string of the list `ss`, in order: one call for every name of a surface, where a `map` over them calls once a name"},
	{Call: "`visible(s)`", Doc: "`s` on one line with what a reader cannot see written out: format characters (zero-width, bidirectional controls, tag characters U+E0000-E007F), controls, variation selectors, private use, unassigned code points and every space but U+0020 as `\\u{E0041}`; line feed and tab as `\\n`, `\\t`; a byte that is not UTF-8 as `\\x{FF}`; `\\` doubled"},
	{Call: "`context_before(s, start, n)`, `context_after(s, end, n)`", Doc: "at most `n` characters of `s` before the character offset `start` (after `end`), for an excerpt around a match: where the text goes on, the cut falls between words, a word it would halve left out, and is marked `…`; a window with no space is cut at the character"},
	{Call: "`decode_base64(s)`, `decode_hex(s)`", Doc: "the text `s` encodes (base64 standard or URL alphabet, padded or not; hex with an optional `0x`; white space ignored), or null unless the bytes are valid UTF-8 of printable characters (tab and line breaks allowed) with at least one letter"},
	{Call: "`s.trim()`, `s.lowerAscii()`, `s.substring(i, j)`, `s.split(sep)` ...", Doc: `CEL's string extensions (version 5)`},
	{Call: "`lists.range(n)`, `l.flatten()`, `l.slice(i, j)`, `l.distinct()`, `l.sortBy(x, key)` ...", Doc: "CEL's list extensions (version 3); `sortBy` keys must be whole numbers or strings"},
	{Call: "`cel.bind(name, value, expr)`", Doc: `names a value once inside a formula`},
}

// FunctionTable is Functions as the README's Markdown table.
func FunctionTable() string {
	var b strings.Builder
	b.WriteString("| function | result |\n|---|---|\n")
	for _, f := range Functions {
		b.WriteString("| " + f.Call + " | " + f.Doc + " |\n")
	}
	return b.String()
}

// WriteFunctions writes Functions as plain text, as rubric rubrics
// functions prints them: each call, and under it what it gives.
func WriteFunctions(w io.Writer) error {
	for _, f := range Functions {
		if _, err := fmt.Fprintf(w, "%s\n    %s\n", strings.ReplaceAll(f.Call, "`", ""), strings.ReplaceAll(f.Doc, "`", "")); err != nil {
			return err
		}
	}
	return nil
}

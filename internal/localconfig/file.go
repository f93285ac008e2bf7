package localconfig

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// ConfigOnly are the config file's keys that no flag has.
var ConfigOnly = []string{"headers", "plugins", "prices"}

// Map is the type of ConfigOnly's keys in Keys: a map of names to values.
const Map = "map"

// Keys are the keys a config file may set, each with the types its value
// may take: a flag's type as pflag names it ("string", "bool", "int",
// "duration", "stringArray", ...), or Map. A key has several when
// commands' flags of one name differ (calibrate's --judge is a list,
// score's one value).
type Keys map[string][]string

// Names are the names a config file is found by, in the working
// directory and in UserDir.
var Names = []string{"rubric.yaml", "rubric.yml"}

// UserDir is the folder of the user's own config file:
// $XDG_CONFIG_HOME/rubric, else ~/.config/rubric; "" when neither is
// known.
func UserDir() string {
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "rubric")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".config", "rubric")
	}
	return ""
}

// Search finds the config file read when none is named: rubric.yaml (or
// rubric.yml) in the working directory, then in $XDG_CONFIG_HOME/rubric
// (or ~/.config/rubric). Only these names count: viper's own search
// would also take a file named plain "rubric", such as the binary
// itself. local says the file is the working directory's; user is then
// the path the user's own config file of that name would have, which
// Found compares it with. path is empty when there is none.
func Search() (path, user string, local bool) {
	dirs := []string{"."}
	if dir := UserDir(); dir != "" {
		dirs = append(dirs, dir)
	}
	for i, dir := range dirs {
		if path := FileIn(dir); path != "" {
			return path, filepath.Join(dirs[len(dirs)-1], filepath.Base(path)), i == 0
		}
	}
	return "", "", false
}

// FileIn is the config file in dir: the first of Names there that is a
// file; "" when there is none.
func FileIn(dir string) string {
	for _, name := range Names {
		path := filepath.Join(dir, name)
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return path
		}
	}
	return ""
}

// Read reads the config file at path into v (whole, under boundedread's
// limit) and checks each of its keys against known (the flags' keys and
// types) and ConfigOnly, naming the file's line. It refuses a key that
// is not there, naming the nearest valid one: a typo such as "rubrc:
// tdqs" would otherwise be ignored and the default run. And it refuses a
// value of the wrong type, which viper would turn into an empty or zero
// value as silently: "judge:" written as a map of "model:" reads as no
// judge at all, "timeout: 30" as 30 nanoseconds.
func Read(v *viper.Viper, path string, known Keys) error {
	v.SetConfigFile(path)
	b, err := boundedread.ReadFile(context.Background(), path, 0)
	if err != nil {
		return boundedread.Named(err, "config file", path, "give --config the path of a YAML config file, or leave --config out to read ./rubric.yaml")
	}
	// viper keeps no lines: the file is read first for them (and for
	// the position of a syntax error), by the YAML library viper reads
	// it with.
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return syntaxError(path, b, err)
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		if top := doc.Content[0]; top.Kind != yaml.MappingNode && !(top.Kind == yaml.ScalarNode && top.Tag == "!!null") {
			return fmt.Errorf("config %s:%d:%d: the file holds %s; a config file is a map of keys, such as rubric: tdqs", path, top.Line, top.Column, given(top))
		}
	}
	if err := v.ReadConfig(bytes.NewReader(b)); err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil // empty: viper refuses a document of another kind
	}
	all := maps.Clone(known)
	if all == nil {
		all = Keys{}
	}
	for _, k := range ConfigOnly {
		all[k] = []string{Map}
	}
	names := slices.Sorted(maps.Keys(all))
	top := doc.Content[0].Content
	for i := 0; i+1 < len(top); i += 2 {
		// viper's keys are not case-sensitive.
		k, val := strings.ToLower(top[i].Value), resolve(top[i+1])
		at := fmt.Sprintf("config %s:%d", path, top[i].Line)
		types, ok := all[k]
		if !ok {
			return fmt.Errorf("%s: unknown key %q%s; the keys are the long flags' names, plus headers, plugins and prices", at, termtext.Printable(top[i].Value), didYouMean(k, names))
		}
		if msg := checkValue(k, val, types, all); msg != "" {
			return fmt.Errorf("%s: %s", at, msg)
		}
		if k == "prices" && val.Kind == yaml.MappingNode {
			if line, msg := checkPrices(val); msg != "" {
				return fmt.Errorf("config %s:%d: %s", path, line, msg)
			}
		}
	}
	return nil
}

// resolve is the node n stands for, through an alias.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// checkValue says what is wrong with the value n of the key k, which
// takes a value of one of types, or "" when nothing is. all are the
// file's keys, to tell a map of them given for one key.
func checkValue(k string, n *yaml.Node, types []string, all Keys) string {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return "" // "key:" alone sets nothing
	}
	for _, t := range types {
		if fits(n, t) {
			return ""
		}
	}
	want := make([]string, len(types))
	for i, t := range types {
		want[i] = wanted(t)
	}
	flag := ""
	if !slices.Contains(types, Map) {
		flag = " (as --" + k + ")"
	}
	msg := fmt.Sprintf("%s is %s, but it takes %s%s", k, given(n), strings.Join(want, " or "), flag)
	switch {
	case n.Kind == yaml.MappingNode && !slices.Contains(types, Map):
		var top []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			if sub := strings.ToLower(n.Content[i].Value); all[sub] != nil {
				top = append(top, sub)
			}
		}
		if len(top) > 0 {
			return msg + fmt.Sprintf("; %s %s: write %s: at the top level", strings.Join(top, ", "), plural(len(top), "is a key of its own", "are keys of their own"), strings.Join(top, ":, "))
		}
		return msg + fmt.Sprintf("; write it on one line, as %s: VALUE", k)
	case n.Kind == yaml.ScalarNode && slices.ContainsFunc(types, isList):
		return msg + fmt.Sprintf(", and a value of several words would be split at its spaces; write it as a list, as %s: [%s] for one value", k, strconv.Quote(termtext.Printable(n.Value)))
	}
	return msg
}

func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// isList says whether the flag type t takes a list.
func isList(t string) bool { return strings.HasSuffix(t, "Array") || strings.HasSuffix(t, "Slice") }

// fits says whether n is a value viper reads right for a key of type t.
func fits(n *yaml.Node, t string) bool {
	scalar := n.Kind == yaml.ScalarNode
	switch {
	case t == Map:
		return n.Kind == yaml.MappingNode
	case isList(t):
		// viper reads a string as the list of its words: one word is
		// a list of one (the README's "rubric: tdqs" is also scan's
		// list of rubrics), but words are not one value split.
		if scalar {
			return len(strings.Fields(n.Value)) <= 1
		}
		if n.Kind != yaml.SequenceNode {
			return false
		}
		for _, item := range n.Content {
			if resolve(item).Kind != yaml.ScalarNode {
				return false
			}
		}
		return true
	case t == "bool":
		_, err := strconv.ParseBool(n.Value)
		return scalar && err == nil
	case t == "int":
		_, err := strconv.ParseInt(n.Value, 0, 0)
		return scalar && err == nil
	case t == "duration":
		_, err := time.ParseDuration(n.Value)
		return scalar && err == nil
	}
	// A string, or a type of a flag's own: viper reads any scalar.
	return scalar
}

// wanted says what a value of the type t is.
func wanted(t string) string {
	switch {
	case t == Map:
		return "a map of names to values"
	case isList(t):
		return "a list of single values"
	case t == "bool":
		return "true or false"
	case t == "int":
		return "a whole number"
	case t == "duration":
		return "a duration such as 30s or 5m"
	}
	return "a single value"
}

// given says what n is, in a few words.
func given(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		var keys []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			keys = append(keys, termtext.Printable(n.Content[i].Value)+":")
		}
		return "a map (" + strings.Join(keys, " ") + ")"
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if resolve(item).Kind != yaml.ScalarNode {
				return "a list holding a list or a map"
			}
		}
		return fmt.Sprintf("a list of %d", len(n.Content))
	}
	return strconv.Quote(termtext.Printable(n.Value))
}

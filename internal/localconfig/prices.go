package localconfig

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// pricesShape is how a price table is written, for the messages that
// refuse one.
const pricesShape = "write prices: {date, source, models: {MODEL: {input, cached_input, output, batch_discount}}}, in US dollars per million tokens"

// members are the JSON names of the members of the struct v, which is
// what ask.DecodePrices reads the price table into: the file is checked
// against the very fields it is decoded to.
func members(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// checkPrices says what is wrong with the price table n (the value of
// prices:), and the line where it is, or "" when nothing is: a key that
// is none of the table's or a model's (with the nearest one), a model's
// price that is not a number, a part that is not a map. Each is named by
// its path (prices.models.gpt-4o.input), which the decoder's own
// message (a Go struct's field and type) would not say.
func checkPrices(n *yaml.Node) (line int, msg string) {
	top, price := members(ask.Prices{}), members(ask.Price{})
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], resolve(n.Content[i+1])
		name := strings.ToLower(k.Value)
		path := "prices." + termtext.Printable(k.Value)
		switch {
		case !slices.Contains(top, name):
			return k.Line, unknownKey(path, name, top, "a price table's keys are "+strings.Join(top, ", "))
		case isNull(val):
		case name != "models" && val.Kind != yaml.ScalarNode:
			return val.Line, fmt.Sprintf("%s is %s, but it takes a single value; %s", path, given(val), pricesShape)
		case name == "models" && val.Kind != yaml.MappingNode:
			return val.Line, fmt.Sprintf("%s is %s, but it takes a map of model names to their prices; %s", path, given(val), pricesShape)
		case name == "models":
			if line, msg := checkModels(val, price); msg != "" {
				return line, msg
			}
		}
	}
	return 0, ""
}

// checkModels checks each model's prices in models, a map of model
// names to maps of the price members.
func checkModels(models *yaml.Node, price []string) (line int, msg string) {
	for i := 0; i+1 < len(models.Content); i += 2 {
		model, val := models.Content[i], resolve(models.Content[i+1])
		at := "prices.models." + termtext.Printable(model.Value)
		if isNull(val) {
			continue
		}
		if val.Kind != yaml.MappingNode {
			return val.Line, fmt.Sprintf("%s is %s, but it takes a map of prices (%s); %s", at, given(val), strings.Join(price, ", "), pricesShape)
		}
		for j := 0; j+1 < len(val.Content); j += 2 {
			k, v := val.Content[j], resolve(val.Content[j+1])
			name := strings.ToLower(k.Value)
			path := at + "." + termtext.Printable(k.Value)
			if !slices.Contains(price, name) {
				return k.Line, unknownKey(path, name, price, "a model's prices are "+strings.Join(price, ", "))
			}
			if isNull(v) || v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Tag == "!!float") {
				continue
			}
			what := "a fraction below 1 taken off every price"
			if name != "batch_discount" {
				what = "US dollars per million tokens"
			}
			return v.Line, fmt.Sprintf("%s is %s, which is not a number (%s)", path, given(v), what)
		}
	}
	return 0, ""
}

// unknownKey refuses the key name at path, with the nearest of known.
func unknownKey(path, name string, known []string, keys string) string {
	return fmt.Sprintf("%s: unknown key%s; %s", path, didYouMean(name, known), keys)
}

// didYouMean is " (did you mean "KEY"?)" for the nearest of known to
// name, or "" when none is near.
func didYouMean(name string, known []string) string {
	if near := nearest.Key(name, known); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

package report

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestSectionScalarsAreWrittenAsRecorded(t *testing.T) {
	f := Field{Name: "server", Value: Fields{
		{Name: "exact", Value: json.RawMessage(`0.12345678901234567891`)},
		{Name: "big", Value: json.RawMessage(`12345678901234567891`)},
		{Name: "one", Value: json.RawMessage(`3.0`)},
		{Name: "tier", Value: json.RawMessage(`"B"`)},
		{Name: "ok", Value: json.RawMessage(`true`)},
		{Name: "none", Value: json.RawMessage(`null`)},
		{Name: "list", Value: json.RawMessage(`[1]`)},
	}}
	got := f.Scalars()
	want := [][2]string{{"exact", "0.12345678901234567891"}, {"big", "12345678901234567891"}, {"one", "3.0"}, {"tier", "B"}, {"ok", "true"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

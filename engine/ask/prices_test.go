package ask

import (
	"strings"
	"testing"
)

func TestDecodePrices(t *testing.T) {
	model := func(p map[string]any) map[string]any {
		return map[string]any{"date": "2026-11-01", "source": "https://example.com/pricing", "models": map[string]any{"m": p}}
	}
	tests := []struct {
		name    string
		raw     any
		want    float64 // input price of model m
		wantErr string
	}{
		{name: "none", raw: nil},
		{name: "table", raw: model(map[string]any{"input": 3, "output": 15, "batch_discount": 0.5}), want: 3},
		{name: "no date", raw: map[string]any{"source": "x"}, wantErr: "say when and where"},
		{name: "unknown field", raw: model(map[string]any{"inptu": 3}), wantErr: "unknown field"},
		{name: "negative", raw: model(map[string]any{"input": -1}), wantErr: `model "m"`},
		{name: "discount of one", raw: model(map[string]any{"batch_discount": 1}), wantErr: "fraction below 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := DecodePrices(tt.raw)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.raw == nil {
				if p != nil {
					t.Fatalf("prices = %+v, want nil", p)
				}
				return
			}
			if got := p.Models["m"].Input; got != tt.want {
				t.Errorf("input = %v, want %v", got, tt.want)
			}
		})
	}
}

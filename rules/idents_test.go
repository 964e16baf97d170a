package rules

import (
	"reflect"
	"testing"
)

// Idents are the bare scope keys an expression reads, where first written:
// what a loader checks against the names a chart defines.
func TestIdents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want []Ident
	}{
		{`volum.usedPct > 90`, []Ident{{Name: "volum", Offset: 0, Line: 1, Column: 1}}},
		{`a.b + len(c) + a`, []Ident{{Name: "a", Line: 1, Column: 1}, {Name: "c", Offset: 10, Line: 1, Column: 11}}},
		{`per-volume.rows`, []Ident{{Name: "per", Line: 1, Column: 1}, {Name: "volume", Offset: 4, Line: 1, Column: 5}}},
		{`$env["per-volume"].rows`, nil},
		{`filter(items, .ok && # != nil)`, []Ident{{Name: "items", Offset: 7, Line: 1, Column: 8}}},
		{`let x = 1; x + y`, []Ident{{Name: "y", Offset: 15, Line: 1, Column: 16}}},
		{`reduce(xs, #acc + #, 0)`, []Ident{{Name: "xs", Offset: 7, Line: 1, Column: 8}}},
		{"true && nil == ok\n  || z", []Ident{{Name: "ok", Offset: 15, Line: 1, Column: 16}, {Name: "z", Offset: 23, Line: 2, Column: 6}}},
		{`x[k]`, []Ident{{Name: "x", Line: 1, Column: 1}, {Name: "k", Offset: 2, Line: 1, Column: 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			got := MustCompile(tc.src).Idents()
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Idents(%q) = %+v, want %+v", tc.src, got, tc.want)
			}
		})
	}
}

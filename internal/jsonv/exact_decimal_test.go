package jsonv

import (
	"encoding/json"
	"testing"
)

// TestDecimalsNoFloatHoldsCompareExactly: a ledger's debits and credits,
// PostgreSQL numerics row_to_json prints with every digit, read as the
// one float64 1e16 and a check of one against the other said
// "balanced", Consistent (testdata/wave-dba/ledger.yaml).
func TestDecimalsNoFloatHoldsCompareExactly(t *testing.T) {
	t.Parallel()
	num := func(s string) any { return Decoded(json.Number(s)) }
	tests := []struct {
		name string
		a, b any
		want int
	}{
		{"a cent apart past 2^53", num("10000000000000000.01"), num("10000000000000000.00"), 1},
		{"the same decimal written twice", num("10000000000000000.01"), num("10000000000000000.010"), 0},
		{"a decimal beside the float it rounds to", num("10000000000000000.01"), 1e16, 1},
		{"a decimal beside an int", num("10000000000000000.01"), 10000000000000000, 1},
		{"an int beside a decimal", 10000000000000001, num("10000000000000000.01"), 1},
		{"a float's print beside a longer decimal", 0.1, num("0.1000000000000000055"), -1},
		{"two integers past uint64 a unit apart", num("123456789012345678901234"), num("123456789012345678901235"), -1},
		{"a negative decimal", num("-10000000000000000.01"), num("-10000000000000000.02"), 1},
		{"past a float64's range", num("1e400"), num("2e400"), -1},
		{"a decimal beside a uint64", num("18446744073709551615.5"), uint64(18446744073709551615), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, ok1 := ExactNumber(tc.a)
			y, ok2 := ExactNumber(tc.b)
			if !ok1 || !ok2 {
				t.Fatalf("ExactNumber(%#v), ExactNumber(%#v): %v %v", tc.a, tc.b, ok1, ok2)
			}
			if got, ok := CompareExact(x, y); !ok || got != tc.want {
				t.Errorf("CompareExact(%v, %v) = %d, %v; want %d", tc.a, tc.b, got, ok, tc.want)
			}
			if got := EqualGo(tc.a, tc.b); got != (tc.want == 0) {
				t.Errorf("EqualGo(%v, %v) = %v", tc.a, tc.b, got)
			}
		})
	}
}

// TestDecimalIsNoInteger: a declared integer input took
// 10000000000000000.01, read as the whole float 1e16.
func TestDecimalIsNoInteger(t *testing.T) {
	t.Parallel()
	if Fits("integer", Decoded("10000000000000000.01")) {
		t.Error("10000000000000000.01 fits integer")
	}
	if !Fits("integer", Decoded("123456789012345678901234")) {
		t.Error("123456789012345678901234 does not fit integer")
	}
}

// TestHugeExponentIsNoBigRational: 1e999999999 must not build 10^999999999.
func TestHugeExponentIsNoBigRational(t *testing.T) {
	t.Parallel()
	x, ok := ExactNumber(json.Number("1e999999999"))
	y, _ := ExactNumber(json.Number("1e400"))
	if c, cmp := CompareExact(x, y); !ok || !cmp || c != 1 {
		t.Errorf("1e999999999 beside 1e400: %d %v %v", c, ok, cmp)
	}
}

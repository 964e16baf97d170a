package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// TestNumberPastInt64SaysWhatItIs: a counter past int64 (ip -j -s link's
// rx.bytes at 18446744073709551615, the value a driver gives a counter it
// does not keep) reaches the scope as its digits, which the rules order
// and compare exactly but expr cannot compute with. int(x) said it
// `could not read the text "json.Number"`, a Go type named as text the
// chart never held, and x - y said `invalid operation: json.Number -
// json.Number`; both say what the value is and what works now.
func TestNumberPastInt64SaysWhatItIs(t *testing.T) {
	t.Parallel()
	env := mapEnv{"x": json.Number("18446744073709551615"), "y": json.Number("18446744073709551614")}
	const what = "a number no int or float64 holds as it is written (a whole number past 9223372036854775807, as an unsigned 64-bit counter can be, a decimal with more digits than a float64 keeps, as a PostgreSQL numeric can be, or one past a float64's range): the rules order and compare it exactly (<, >, ==), but no arithmetic, int() or float() is exact over it"
	for _, src := range []string{"x - y", "x + 1", "int(x)", "float(x)", "x * 1.0", "max(x, y)", "sum([x, y])"} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || !strings.Contains(err.Error(), what) || strings.Contains(err.Error(), "json.Number") {
			t.Errorf("%s: %v\nwant it to say %s", src, err, what)
		}
	}
	if v, _, err := MustCompile("x > y && x != y").Value(env); err != nil || v != true {
		t.Errorf("x > y && x != y = %v, %v; want true: the order is exact", v, err)
	}
}

// TestDecimalsNoFloatHoldsCompareExactly: a ledger's sums, PostgreSQL
// numerics with a cent past 2^53, read as one float64 and a rule
// `debit != credit` said they were equal ("balanced", Consistent); a
// filter's eq said the same. Both compare the digits now, and
// arithmetic over them says it cannot be exact.
func TestDecimalsNoFloatHoldsCompareExactly(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(`{"debit": 10000000000000000.01, "credit": 10000000000000000.00}`))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	env := mapEnv{"debit": jsonv.Decoded(doc["debit"].(json.Number)), "credit": jsonv.Decoded(doc["credit"].(json.Number))}
	for src, want := range map[string]any{"debit != credit": true, "debit > credit": true, "debit == credit": false} {
		if v, _, err := MustCompile(src).Value(env); err != nil || v != want {
			t.Errorf("%s = %v, %v; want %v", src, v, err, want)
		}
	}
	if _, _, err := MustCompile("debit - credit").Value(env); err == nil || !strings.Contains(err.Error(), "a decimal with more digits than a float64 keeps") {
		t.Errorf("debit - credit: %v; want it to say no arithmetic is exact", err)
	}
	f := MustFilter(Where("debit", OpEq, env["credit"]))
	if f.Eval(env).Matched {
		t.Error("a filter's eq said 10000000000000000.01 equals 10000000000000000.00")
	}
}

package chart

import (
	"encoding/json"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

// TestYAMLDecimalsKeepTheirDigits: a YAML number no float64 is (a
// test's expected `debit: 10000000000000000.01`, an --inputs file's) was
// the float64 1e16, beside a run that reads the same literal from JSON
// as its digits (jsonv.Decoded): the two readers must agree.
func TestYAMLDecimalsKeepTheirDigits(t *testing.T) {
	t.Parallel()
	src := "a: 10000000000000000.01\nb: [1.5, 0.10000000000000001, {c: 3.14159265358979323846}]\nd: &x 100000000000000.01\ne: 2\n"
	f, err := parser.ParseBytes([]byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	got := ExactNumbers(f.Docs[0].Body, v).(map[string]any)
	want := map[string]any{
		"a": json.Number("10000000000000000.01"),
		"d": json.Number("100000000000000.01"),
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %#v, want %#v", k, got[k], w)
		}
	}
	b := got["b"].([]any)
	if b[0] != 1.5 || b[1] != 0.1 || b[2].(map[string]any)["c"] != json.Number("3.14159265358979323846") {
		t.Errorf("b = %#v", b)
	}
}

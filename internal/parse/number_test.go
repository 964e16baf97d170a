package parse

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestNumberAFloatCannotHoldStaysText: a value kv, columns, csv, tsv or
// regex would make a number stays text when the number would not be the
// one it spells. Before, `id=12345678901234567890` (past int64) became the
// float64 12345678901234567168, printed 1.2345678901234567e+19 in a
// verdict column, and ids 12345678901234567890 and 12345678901234567891
// were equal to a rule; 1e-400 became 0. A number a float64 holds to its
// last digit (0.1, 1.50, 2e+3) and every int64 is a number as before.
func TestNumberAFloatCannotHoldStaysText(t *testing.T) {
	t.Parallel()
	in := "a=12345678901234567890\nb=12345678901234567891\nc=3.14159265358979323846\nd=1e-400\n" +
		"e=9223372036854775807\nf=0.1\ng=1.50\nh=2e+3\ni=-9007199254740993\nj=1e+999\nk=1e-99999999999999\n"
	res, err := Parse(in, Spec{Mode: "kv"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": "12345678901234567890", "b": "12345678901234567891", "c": "3.14159265358979323846", "d": "1e-400",
		"e": 9223372036854775807, "f": 0.1, "g": 1.5, "h": 2000.0, "i": -9007199254740993, "j": json.Number("1e+999"),
		"k": "1e-99999999999999",
	}
	if !reflect.DeepEqual(res.Value, want) || res.Problems != 0 {
		t.Errorf("got %#v (%d problems), want %#v", res.Value, res.Problems, want)
	}
	rows, err := Parse("id name\n12345678901234567890 x\n12345678901234567891 y\n", Spec{Mode: "columns"})
	if err != nil {
		t.Fatal(err)
	}
	l := rows.Value.([]any)
	if a, b := l[0].(map[string]any)["id"], l[1].(map[string]any)["id"]; a == b {
		t.Errorf("two ids read as one value: %v", a)
	}
}

// TestHexLikeNumberStaysText: digits, an e and digits with no sign are
// hexadecimal text as much as a number, and stay text in every mode that
// reads numbers. openssl x509 -serial printed serial=1E10, kv read it as
// 10000000000 (so the verdict table showed), and string(serial) in
// revoked, as the kinds error said to write, was false over a revoked
// certificate's serial 1E10 (wave-pki). A number a tool prints with an
// exponent has its sign (1e+10) or a point (2.5E3), and stays a number.
func TestHexLikeNumberStaysText(t *testing.T) {
	t.Parallel()
	res, err := Parse("serial=1E10\nid=1234e56\nneg=-12E4\nsigned=1e+10\npoint=2.5E3\nplain=10\n", Spec{Mode: "kv"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"serial": "1E10", "id": "1234e56", "neg": "-12E4", "signed": 1e10, "point": 2500.0, "plain": 10}
	if !reflect.DeepEqual(res.Value, want) || res.Problems != 0 {
		t.Errorf("kv: got %#v (%d problems), want %#v", res.Value, res.Problems, want)
	}
	rows, err := Parse("        Serial Number: 1E10\n", Spec{Mode: "regex", Options: map[string]any{"pattern": `Serial Number: (?P<serial>\S+)`}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rows.Value.([]any)[0].(map[string]any)["serial"]; got != "1E10" {
		t.Errorf("regex: serial %#v, want the text 1E10", got)
	}
}

package runbook

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestConvertInput: inputs are checked by jsonv.Fits, the rule plugin
// arguments are checked by, so a value one takes the other takes.
func TestConvertInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		typ     string
		v       any
		want    any
		wantErr string
	}{
		{"number text", "number", "5", 5, ""},
		{"number fraction text", "number", " 2.5", 2.5, ""},
		{"number float64", "number", 2.5, 2.5, ""},
		{"number refuses a bool", "number", true, nil, "is not a number (got a boolean)"},
		{"string refuses a number", "string", 1.0, nil, "is not a string (got a number)"},
		{"object refuses a list", "object", []any{}, nil, "is not an object (got a list)"},
		{"list refuses []string", "list", []string{"a"}, nil, "is not a list (got []string)"},
		{"duration text stays text", "duration", "90s", "90s", ""},
		{"unknown type", "integer", 1, nil, `has an unknown type "integer"`},
		// a bool as Go's flags read one (docs/CHARTS.md), never yes or on
		{"bool true", "bool", "true", true, ""},
		{"bool 0", "bool", "0", false, ""},
		{"bool T", "bool", "T", true, ""},
		{"bool FALSE", "bool", "FALSE", false, ""},
		{"bool refuses yes", "bool", "yes", nil, `is not a bool: "yes" (true or false)`},
		{"bool refuses on", "bool", "on", nil, `is not a bool: "on" (true or false)`},
		// Regressions: convertInput's own number list left out int8, int16,
		// uint8 and uint16 (plugin arguments took them), and a duration
		// input refused a time.Duration (a duration argument took it).
		{"issue-jsonv number int8", "number", int8(3), int8(3), ""},
		{"issue-jsonv number uint16", "number", uint16(3), uint16(3), ""},
		{"issue-jsonv duration time.Duration", "duration", 90 * time.Second, "1m30s", ""},
		// Regressions (issue #19): ParseFloat reads NaN, inf and 1e999 (as
		// +Inf), so `--input n=inf` was taken and `--format json` then
		// failed with "unsupported value: +Inf", losing the result; a YAML
		// or Go caller's float NaN was taken the same way.
		{"issue19 number text NaN", "number", "NaN", nil, `is not a number: "NaN"`},
		{"issue19 number text inf", "number", "inf", nil, `is not a number: "inf"`},
		{"issue19 number text 1e999", "number", "1e999", nil, `is not a number: "1e999"`},
		{"issue19 number float64 NaN", "number", math.NaN(), nil, "is not a number: it holds NaN (0 / 0, or arithmetic on an infinity?), which is not a JSON number"},
		{"issue19 object holding +Inf", "object", map[string]any{"x": math.Inf(1)}, nil, "is not an object: it holds +Inf (a division by zero?), which is not a JSON number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := convertInput(tc.typ, tc.v)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("convertInput(%q, %#v) err = %v, want %q", tc.typ, tc.v, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("convertInput(%q, %#v) = %#v, %v; want %#v", tc.typ, tc.v, got, err, tc.want)
			}
		})
	}
}

// TestInputsDecodeNumbersAsLocalRunsDo: inputs carried through JSON (a
// Temporal workflow's payload) decoded by encoding/json alone were all
// float64s, so the worker ran string(id) as "1e+08" where the local run
// said "100000000", and 9007199254740993 as …992 (temporal
// TestConformance, numbers.yaml). Inputs reads them as jsonv does.
func TestInputsDecodeNumbersAsLocalRunsDo(t *testing.T) {
	var carried struct{ Inputs Inputs }
	if err := json.Unmarshal([]byte(`{"Inputs": {"id": 100000000, "big": 9007199254740993, "ratio": 0.5, "ids": [1, 2.5]}}`), &carried); err != nil {
		t.Fatal(err)
	}
	want := Inputs{"id": 100000000, "big": 9007199254740993, "ratio": 0.5, "ids": []any{1, 2.5}}
	if !reflect.DeepEqual(carried.Inputs, want) {
		t.Fatalf("inputs = %#v; want %#v", carried.Inputs, want)
	}
	if err := json.Unmarshal([]byte(`{"Inputs": null}`), &carried); err != nil || carried.Inputs != nil {
		t.Fatalf("null: %v, %#v", err, carried.Inputs)
	}
	if err := json.Unmarshal([]byte(`{"Inputs": [1]}`), &carried); err == nil || !strings.Contains(err.Error(), "want a JSON object of inputs") {
		t.Fatalf("a list: %v", err)
	}
}

// TestListInputNotJSONSaysWhy: `--input 'allowed=[22,]'` (a trailing
// comma) and `[22,'3389']` (shell-style quotes) were refused as "is not a
// list: give a JSON array, like ["a","b"]", which they looked like, with
// no word of what was wrong. A text that opens as a JSON list or object
// says what the JSON reader found; one that does not is refused as before.
func TestListInputNotJSONSaysWhy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ typ, text, err string }{
		{"list", "[22,]", `is not a list: it is no JSON: invalid character ']' looking for beginning of value: give a JSON array, like ["a","b"]`},
		{"list", "[22,'3389']", `is not a list: it is no JSON: invalid character '\'' looking for beginning of value (JSON quotes text with ", not '): give a JSON array, like ["a","b"]`},
		{"list", "22,80", `is not a list: give a JSON array, like ["a","b"]`},
		{"object", "{a: 1}", `is not an object: it is no JSON: invalid character 'a' looking for beginning of object key string: give a JSON object, like {"k":1}`},
	} {
		_, err := convertInput(tc.typ, tc.text)
		if err == nil || err.Error() != tc.err {
			t.Errorf("%s %s: %v\nwant %s", tc.typ, tc.text, err, tc.err)
		}
	}
}

// TestInputNumberWrittenAsALocaleDoesIsRefused: a floor typed in
// Germany, `--input minFree=10.000` (MB), was read as 10, and a volume
// with 500 MB free stood over it, OK. A number text of one point and
// three digits after a leading digit that is not 0 reads two ways, and
// is refused naming both; a decimal comma ("1,5") is refused saying how
// C writes it. "0.125", "1.5", "1.50" and "1000" read as before.
func TestInputNumberWrittenAsALocaleDoesIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want any
		err  string
	}{
		{"10.000", nil, `is not one number: "10.000" is 10 read with a decimal point, and 10000 where a point groups thousands (de_DE, da_DK, it_IT): write 10 or 10000`},
		{"2.500", nil, `write 2.5 or 2500`},
		{"-1.000", nil, `write -1 or -1000`},
		{"1,5", nil, `is not a number: "1,5" (a number is written with a decimal point and no grouping, as C writes it: 1.5)`},
		{"1.234,5", nil, `as C writes it: 1234.5)`},
		{"0.125", 0.125, ""},
		{"1.5", 1.5, ""},
		{"1.50", 1.5, ""},
		{"1000", 1000, ""},
		{"1.0001", 1.0001, ""},
	} {
		got, err := convertInput("number", tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v, err %v; want an error saying %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %#v, err %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

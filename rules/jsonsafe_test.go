package rules

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 13: every value an expression yields is a JSON value.
func TestValueIsJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want string
	}{
		{`fromPairs([[1, "a"], [2, "b"]])`, `{"1":"a","2":"b"}`},
		{`groupBy([1, 2, 3], # % 2)`, `{"0":[2],"1":[1,3]}`},
		{`[fromPairs([[true, 1]])]`, `[{"true":1}]`},
		{`keys({"a": 1})`, `["a"]`},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			v, _, err := MustCompile(tc.src).Value(mapEnv{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("json.Marshal(%#v): %v", v, err)
			}
			if string(b) != tc.want {
				t.Errorf("%s = %s, want %s", tc.src, b, tc.want)
			}
		})
	}
}

func TestValueThatJSONCannotHoldIsAnError(t *testing.T) {
	t.Parallel()
	// 0.0 / 0.0 is refused where it divides now (TestDivisionByZeroIsAnError);
	// an infinity less itself is NaN all the same.
	_, _, err := MustCompile(`x * 10 - x * 10`).Value(mapEnv{"x": 1e308})
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("x * 10 - x * 10: err = %v, want one naming NaN", err)
	}
}

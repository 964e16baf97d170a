package record

import (
	"encoding/json"
	"testing"
)

// TestRoundedNumberIsAFloatsPrint: jq 1.6's prints of numbers past 2^53
// are found; a number written whole, one a float64 holds exactly and
// one within 2^53 are not.
func TestRoundedNumberIsAFloatsPrint(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{json.Number("18446744073709552000"), "18446744073709552000"},
		{map[string]any{"a": 1, "b": []any{json.Number("9223372036854776000")}}, "9223372036854776000"},
		{1234567890123456800, "1234567890123456800"},
		{json.Number("-18446744073709552000"), "-18446744073709552000"},
		{json.Number("18446744073709551615"), ""},
		{9223372036854775807, ""},
		{9007199254740992, ""},
		{12345678901234568, ""},
		{123456789012345680, ""},
		{1000, ""},
		{1.8446744073709552e19, "18446744073709552000"},
		{9.007199254740994e15, ""},
		{2.5, ""},
		{1e23, ""},
		{json.Number("1e+20"), ""},
	} {
		if got := RoundedNumber(tc.v); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.v, got, tc.want)
		}
	}
}

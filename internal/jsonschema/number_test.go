package jsonschema

import "testing"

func TestDecimal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b  string
		cmp   int
		aInt  bool
		aSign int
	}{
		{"0", "-0", 0, true, 0},
		{"0.0e5", "0", 0, true, 0},
		{"1", "1.0", 0, true, 1},
		{"1e2", "100", 0, true, 1},
		{"100.0", "1E+2", 0, true, 1},
		{"1.5", "1.50", 0, false, 1},
		{"1.5e1", "15", 0, true, 1},
		{"0.1", "0.10", 0, false, 1},
		{"0.1", "0.09999999999999999999", 1, false, 1},
		{"-0.1", "-0.09", -1, false, -1},
		{"-3", "0", -1, true, -1},
		{"2", "10", -1, true, 1},
		{"12", "1.2e1", 0, true, 1},
		{"123", "13", 1, true, 1},
		{"0.13", "0.123", 1, false, 1},
		{"1e-2", "0.01", 0, false, 1},
		{"1000e-3", "1", 0, true, 1},
		{"1e400", "9e399", 1, true, 1},
		{"-1e400", "-9e399", -1, true, -1},
		{"1e-400", "0", 1, false, 1},
		{"1e99999999999999999999999", "1e99999999999999999999998", 0, true, 1}, // past maxExp: by digits alone
		{"2e99999999999999999999999", "1e99999999999999999999999", 1, true, 1},
		{"00012.3400", "12.34", 0, false, 1},
	}
	for _, tc := range tests {
		a, okA := parseDecimal(tc.a)
		b, okB := parseDecimal(tc.b)
		if !okA || !okB {
			t.Errorf("%s, %s: not parsed", tc.a, tc.b)
			continue
		}
		if got := a.compare(b); got != tc.cmp {
			t.Errorf("compare(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.cmp)
		}
		if got := b.compare(a); got != -tc.cmp {
			t.Errorf("compare(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.cmp)
		}
		if a.isInt() != tc.aInt {
			t.Errorf("isInt(%s) = %v", tc.a, a.isInt())
		}
		if a.sign() != tc.aSign {
			t.Errorf("sign(%s) = %d", tc.a, a.sign())
		}
	}
	for _, bad := range []string{"", "-", "1.", ".5", "1e", "1e+", "x", "1.2.3", "--1", "1e1.5"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("parseDecimal(%q) accepted", bad)
		}
	}
}

func TestDecimalToInt(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]int{"0": 0, "7": 7, "1e1": 10, "1.0": 1, "120": 120, "1e30": int(^uint(0) >> 1)} {
		d, _ := parseDecimal(s)
		if got := d.toInt(); got != want {
			t.Errorf("toInt(%s) = %d, want %d", s, got, want)
		}
	}
}

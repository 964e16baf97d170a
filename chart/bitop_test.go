package chart

import (
	"strings"
	"testing"
)

// TestBitOperatorSaysBitFunctions: /proc/sys/kernel/tainted is a bitmask,
// and a check of one flag written as C, Go or a shell writes it (`taint &
// 4096`, `taint >> 12`) does not compile: expr has no bit operators, and
// the error said only `unexpected token Operator("&")`, where expr's
// bitand(taint, 4096) does it. The load error names the function now.
func TestBitOperatorSaysBitFunctions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ expr, want string }{
		{"taint & 4096 != 0", "bitand(x, 4096) for x & 4096"},
		{"taint | 4096", "bitor"},
		{"taint >> 12", "bitshr(x, 12) for x >> 12"},
		{"taint << 2", "bitshl"},
	} {
		src := "version: 1\nrunbook: m\nvars: {taint: 4097}\nstages:\n  - id: s\n    set:\n      bit: '" + tc.expr + "'\n"
		_, err := Parse("chart.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "expr has no bit operators") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant it to say expr has no bit operators, naming %s", tc.expr, err, tc.want)
		}
	}
	src := "version: 1\nrunbook: m\nvars: {taint: 4097}\nstages:\n  - id: s\n    set:\n      bit: 'taint && ) 1'\n"
	if _, err := Parse("chart.yaml", []byte(src)); err == nil || strings.Contains(err.Error(), "bit operators") {
		t.Errorf("&& is no bit operator: %v", err)
	}
	src = "version: 1\nrunbook: m\nvars: {taint: 4097}\nstages:\n  - id: s\n    set:\n      bit: 'bitand(taint, 4096) != 0'\n"
	if _, err := Parse("chart.yaml", []byte(src)); err != nil {
		t.Errorf("bitand: %v", err)
	}
}

// TestRemainderOfAQuotientSaysIntOrBitand: a taint check written without
// bit operators, `int(trim(t.stdout)) / 4096 % 2` (bit 12, an out-of-tree
// module), does not compile, and the error said only `invalid operation:
// % (mismatched types float64 and int)`: expr's / gives a fraction. The
// load error says so, and names int(x / 4096) and bitand (rules
// TestRemainderOfAFractionSaysIntOrBitand is the same at run time).
func TestRemainderOfAQuotientSaysIntOrBitand(t *testing.T) {
	t.Parallel()
	for _, e := range []string{"int(taint) / 4096 % 2", "2 % (int(taint) / 4096)"} {
		src := "version: 1\nrunbook: m\nvars: {taint: 4097}\nstages:\n  - id: s\n    set:\n      bit: '" + e + "'\n"
		_, err := Parse("chart.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "write int(x / 4096) % 2") || !strings.Contains(err.Error(), "bitand(x, 4096) != 0") {
			t.Errorf("%s: error %v\nwant it to name int(x / 4096) and bitand", e, err)
		}
	}
	src := "version: 1\nrunbook: m\nvars: {taint: 4097}\nstages:\n  - id: s\n    set:\n      bit: 'int(taint / 4096) % 2 == 1'\n"
	if _, err := Parse("chart.yaml", []byte(src)); err != nil {
		t.Errorf("int(taint / 4096) %% 2: %v", err)
	}
}

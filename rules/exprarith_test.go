package rules

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestWholeNumberArithmeticNeverWraps: expr multiplied two Go ints modulo
// 2^64, so `used * 100 / size` over a 729 PB Lustre filesystem's byte
// counts (df -B1) was -5.19, and a rule `pct >= 90` held nothing over a
// filesystem 96% full. A whole-number +, - or * past int64 is an error
// naming the operation and the number it spells; one within it, and
// float, time and text operands, are as before. sum adds as + does: it
// wrapped -9223372036854775808 out of [MaxInt64, 1]. Unary - is the
// negative of any whole number: a uint64 1000 was 18446744073709550616.
// int() of a number past int64 (int(float(used) * 100)) was
// -9223372036854775808, a percent of -12.65 over a disk 96% full.
func TestWholeNumberArithmeticNeverWraps(t *testing.T) {
	t.Parallel()
	const why = "past the largest whole number an expression holds"
	env := mapEnv{
		"v":      map[string]any{"used": 700000000000000000, "size": 729000000000000000, "small": 91000000000},
		"big":    math.MaxInt64,
		"neg":    math.MinInt64,
		"i32":    int32(math.MaxInt32),
		"u64":    uint64(math.MaxUint64),
		"u1000":  uint64(1000), // a Go stage's statfs field
		"fl":     7e17,
		"day":    time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC),
		"dur":    time.Hour,
		"name":   "vda",
		"digits": "70000000000000000000",
	}
	tests := []outcomeCase{
		{`v.used * 100 / v.size >= 90`, false, `v.used * 100: 700000000000000000 * 100 is 70000000000000000000, ` + why},
		{`100 * v.used > 0`, false, why},
		{`big + 1 > 0`, false, `big + 1: 9223372036854775807 + 1 is 9223372036854775808, ` + why},
		{`neg - 1 < 0`, false, `neg - 1: -9223372036854775808 - 1 is -9223372036854775809, ` + why},
		{`-1 * neg > 0`, false, why},
		{`u64 + 1 > 0`, false, why},
		{`float(v.used) * 100 / v.size >= 90`, true, ""},
		{`v.used / v.size * 100 >= 90`, true, ""},
		{`v.small * 100 / 270553174016 > 33`, true, ""},
		{`big - 1 == 9223372036854775806`, true, ""},
		{`neg + big == -1`, true, ""},
		{`i32 * 2 == 4294967294`, true, ""},
		{`fl * 100 > 1e19`, true, ""},
		{`(day - date("2026-12-05T00:00:00Z")).Hours() == 24`, true, ""},
		{`name + "1" == "vda1"`, true, ""},
		{`sum([big, 1]) > 0`, false, "sum([big, 1]): 9223372036854775807 + 1 is 9223372036854775808, " + why},
		{`sum([v], .used * 100) > 0`, false, "700000000000000000 * 100 is 70000000000000000000"},
		{`sum([big, 1], #) > 0`, false, why},
		{`sum([v, v], .small) == 182000000000`, true, ""},
		{`sum([1, 2.5]) == 3.5`, true, ""},
		{`sum([]) == 0`, true, ""},
		{`-u1000 < 0`, true, ""},
		{`-5 < -u1000`, false, ""},
		{`-neg > 0`, false, "past the smallest whole number"},
		{`-u64 < 0`, false, "past the smallest whole number"},
		{`-fl < 0`, true, ""},
		{`day + -dur < day`, true, ""},
		{`-v.small == -91000000000`, true, ""},
		{`int(float(v.used) * 100) / v.size >= 90`, false, "int(float(v.used) * 100): 7e+19 is past the largest whole number"},
		{`int(float(v.used) / v.size * 100) == 96`, true, ""},
		{`int(u64) > 0`, false, "18446744073709551615 is past the largest whole number"},
		{`int(digits) > 0`, false, `int() could not read the text "70000000000000000000" as a whole number: it is past the largest whole number`},
		{`int(fl) == 700000000000000000`, true, ""},
		{`int("12") + int(2.7) == 14`, true, ""},
		{`int(v?.missing) > 0`, false, "int() was given null"},
	}
	runOutcomes(t, env, tests)
	x := MustCompile(`v.used * 100`)
	if _, _, err := x.Value(env); err == nil || !strings.Contains(err.Error(), "float(x) * y") {
		t.Errorf("Value: %v; want the error saying how to keep the size", err)
	}
}

// TestDivisionByZeroIsAnError: df -B1's pseudo filesystems have size 0,
// and `used * 100 / size >= 90` made 0/0, NaN, which expr's own `>=`
// (two operands of known types: a quotient, a constant) ordered as false
// with no word: a plain no, where the same rule reading its threshold
// from an input was a rule error (NaN has no order). A division by zero
// is an error naming it; the rest divide as before.
func TestDivisionByZeroIsAnError(t *testing.T) {
	t.Parallel()
	const why = "divides by zero, and the quotient is no number"
	env := mapEnv{"fs": map[string]any{"used": 0, "size": 0, "avail": 0}, "lim": 90, "f": 0.0, "n": 7}
	runOutcomes(t, env, []outcomeCase{
		{`fs.used * 100 / fs.size >= 90`, false, `fs.used * 100 / fs.size: 0 / 0 ` + why},
		{`fs.used * 100 / fs.size >= lim`, false, why},
		{`float(fs.used) / float(fs.size) < 0.1`, false, why},
		{`1 / fs.size > 90`, false, why},
		{`n / f > 1`, false, why},
		{`fs.size == 0 || fs.used * 100 / fs.size >= 90`, true, ""},
		{`fs.size != 0 ? fs.used / fs.size > 0.9 : false`, false, ""},
		{`n / 2 == 3.5`, true, ""},
		{`(n / 2) * 2 == 7`, true, ""},
	})
}

// TestFloatOfNaNTextIsAnError: Go reads "nan" and "inf" (Python's and
// awk's 0/0 and overflow) as numbers, and float("nan") >= 90 was false
// with no word. Such a text is no number: an error naming it.
func TestFloatOfNaNTextIsAnError(t *testing.T) {
	t.Parallel()
	const why = "is no number"
	env := mapEnv{"util": "nan", "rate": "inf", "neg": "-Infinity", "ok": "12.5", "none": nil, "word": "abc"}
	runOutcomes(t, env, []outcomeCase{
		{`float(util) >= 90`, false, `float(util): the text "nan" ` + why},
		{`float(rate) > 90`, false, why},
		{`float(neg) < 0`, false, why},
		{`float(ok) > 12`, true, ""},
		{`float(12) == 12.0`, true, ""},
		{`float(none) > 0`, false, "float() was given null"},
		{`float(word) > 0`, false, `float() could not read the text "abc" as a number`},
	})
}

// TestArithmeticOverNullSaysWhatNullIs: max([]) is null, and `max(ages) -
// 1` said only "invalid operation: int64 - <nil>", naming a Go type and
// no side; a null a member its object lacks gave the same. The error says
// which side is null, what makes one, and what to write. (max() of no
// items is said in its own words now, TestMaxOverNoItemsIsNoted;
// first() of an empty list is such a null still.)
func TestArithmeticOverNullSaysWhatNullIs(t *testing.T) {
	t.Parallel()
	env := mapEnv{"ages": []any{}, "x": nil, "n": 3}
	for src, want := range map[string]string{
		"first(ages) - 1": `first(ages) - 1: the left side of "-" is null (first() or last() of an empty list`,
		"n * x":           `n * x: the right side of "*" is null`,
		"x + n":           `x + n: the left side of "+" is null`,
		"x - x":           `x - x: both sides of "-" are null`,
	} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "?? 0") || strings.Contains(err.Error(), "<nil>") {
			t.Errorf("%s: %v\nwant it to hold %q and what to write", src, err, want)
		}
	}
}

// TestOrderingANumberBesideATextSaysNumbersFalse: parse: tsv read the
// version 0.270 as the number 0.27, and `p.version < minimum[p.pkg]`
// beside the minimum "0.270" said only "invalid operation: float64 <
// string"; an ordering over a null said "<nil>". Each says what it met and
// what to write: numbers: false for a parse that read a version, ?? for
// a null.
func TestOrderingANumberBesideATextSaysNumbersFalse(t *testing.T) {
	t.Parallel()
	env := mapEnv{"installed": 0.27, "minimum": "0.270", "x": nil}
	for src, want := range map[string]string{
		"installed < minimum":  `installed < minimum: a number cannot be ordered with a text`,
		"minimum >= installed": `give that parse numbers: false`,
		"x > 5":                `the left side of ">" is null`,
	} {
		_, _, err := MustCompile(src).Value(env)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "invalid operation") {
			t.Errorf("%s: %v\nwant it to hold %q", src, err, want)
		}
	}
}

// TestZerosOnlyTextIsNoNumber: curl's %{http_code} is 000 when no HTTP
// answer came, and `int(r.code) >= 400` read a refused URL as status 0:
// up, Consistent (testdata/wave-web/many-urls). int() and float() of a
// text of three zeros or more are an error saying to say what it means;
// "00" and "0" read as 0, as before.
func TestZerosOnlyTextIsNoNumber(t *testing.T) {
	t.Parallel()
	for src, refused := range map[string]bool{
		`int(code) >= 400`:   true,
		`float(code) >= 400`: true,
		`int("0000") == 0`:   true,
		`int(minute) == 0`:   false,
		`float(minute) == 0`: false,
		`int("0") == 0`:      false,
		`int("200") == 200`:  false,
		`int("007") == 7`:    false,
	} {
		v, _, err := MustCompile(src).Value(mapEnv{"code": "000", "minute": "00"})
		if got := err != nil; got != refused {
			t.Errorf("%s: %v, %v; want refused %v", src, v, err, refused)
		}
		if refused && err != nil && !strings.Contains(err.Error(), "zeros only") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestZerosOnlyTextSaysHowToReadAPaddedZero: smartctl -A pads VALUE,
// WORST and THRESH to three digits, and a THRESH of "000" is the number
// 0 (an attribute that never fails), not curl's "no answer"; the error
// said only to call it no-answer, and a SMART chart's
// `int(a.VALUE) <= int(a.THRESH)` stood Not sure on every disk with no
// word on how to read it. It names the padded case and its form now.
func TestZerosOnlyTextSaysHowToReadAPaddedZero(t *testing.T) {
	t.Parallel()
	_, _, err := MustCompile(`int(a.THRESH) >= int(a.VALUE)`).Value(mapEnv{"a": map[string]any{"THRESH": "000", "VALUE": "097"}})
	const want = `where the tool pads its numbers with zeros (smartctl -A's THRESH "000"), it is the number 0: a.THRESH == "000" ? 0 : int(a.THRESH)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v\nwant it to hold %s", err, want)
	}
}

package jsonschema

import (
	"cmp"
	"strings"
)

// decimal is a JSON number held exactly: ±0.digits × 10^exp. It never goes
// through float64, so 0.1 equals 0.10 and 1e2 is an integer, and it never
// goes through math/big, so a literal like 1e999999999 costs nothing.
type decimal struct {
	neg    bool
	digits string // significant digits: no leading or trailing zeros; "" is zero
	exp    int64
}

// maxExp bounds a literal's exponent. Two numbers whose exponents are both
// past it compare by their digits alone: a document with such numbers is
// not one this package is meant to judge finely, and the bound keeps the
// arithmetic from overflowing.
const maxExp = 1 << 60

// parseDecimal reads a JSON number literal (as encoding/json's Number
// holds it); false when s is not one.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	mant, expText, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac, hasPoint := mant, "", false
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac, hasPoint = mant[:i], mant[i+1:], true
	}
	if !digitsOnly(intPart) || (hasPoint && !digitsOnly(frac)) {
		return decimal{}, false
	}
	e, ok := parseExp(expText)
	if hasExp && !ok {
		return decimal{}, false
	}
	frac = strings.TrimRight(frac, "0") // trailing zeros of a fraction say nothing
	intPart = strings.TrimLeft(intPart, "0")
	point := int64(len(intPart))
	switch {
	case intPart == "":
		t := strings.TrimLeft(frac, "0")
		point = -int64(len(frac) - len(t))
		d.digits = t
	case frac == "":
		d.digits = strings.TrimRight(intPart, "0")
	default:
		d.digits = intPart + frac
	}
	if d.digits == "" {
		return decimal{}, true // zero, and -0 is zero
	}
	d.exp = point + e
	return d, true
}

// parseExp reads an exponent's digits and sign, clamped to ±maxExp.
func parseExp(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if !digitsOnly(s) {
		return 0, false
	}
	var e int64
	for i := 0; i < len(s) && e < maxExp; i++ {
		e = e*10 + int64(s[i]-'0')
	}
	e = min(e, maxExp)
	if neg {
		e = -e
	}
	return e, true
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isInt says whether d is a whole number (2020-12: 1.0 is an integer).
func (d decimal) isInt() bool { return d.digits == "" || d.exp >= int64(len(d.digits)) }

// sign is -1, 0 or +1.
func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// compare compares d with o: -1, 0 or +1.
func (d decimal) compare(o decimal) int {
	ds, os := d.sign(), o.sign()
	if ds != os || ds == 0 {
		return cmp.Compare(ds, os)
	}
	mag := 0 // |d| against |o|
	switch {
	case d.exp != o.exp:
		mag = cmp.Compare(d.exp, o.exp)
	default:
		// Equal exponents: with no trailing zeros, digit strings order as
		// the fractions 0.digits do.
		mag = strings.Compare(d.digits, o.digits)
	}
	return mag * ds
}

// toInt returns d as an int, clamped to [0, maxInt]; for the length and
// count keywords, whose values Compile has checked are whole and not
// negative.
func (d decimal) toInt() int {
	const maxInt = int(^uint(0) >> 1)
	if d.digits == "" || d.neg {
		return 0
	}
	if d.exp > 18 {
		return maxInt
	}
	n := 0
	for i := int64(0); i < d.exp; i++ {
		n *= 10
		if i < int64(len(d.digits)) {
			n += int(d.digits[i] - '0')
		}
	}
	return n
}

package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// serialLessFunc is `serialLess(a, b)`: whether the DNS zone serial a
// comes before b in serial number arithmetic (RFC 1982, SERIAL_BITS 32),
// the order in which a secondary is behind its primary. Serials are
// unsigned 32-bit numbers that wrap: after 4294967295 comes 0, and a
// primary whose serial went on from 4294967290 to 5 is AHEAD of a
// secondary still at 4294967290. `secondary.serial < primary.serial`
// compares them as plain numbers and said in-sync, Nagios OK, Consistent,
// over a secondary one change behind (TestSerialLessWrapsRoundAsRFC1982).
//
// a is before b when they differ and (b - a) mod 2^32 is below 2^31; two
// serials exactly 2^31 apart have no order (RFC 1982 leaves it undefined),
// an error, as is a value that is no serial: not a whole number from 0
// to 4294967295 (a number, or a text of its digits as dig prints it).
//
//	serialLess(2026120601, 2026120702)   true
//	serialLess(4294967290, 5)            true: 5 is 11 changes later
//	serialLess(5, 4294967290)            false
//	serialLess(7, 7)                     false
//	serialLess(0, 2147483648)            error: 2^31 apart, no order
func serialLessFunc(params ...any) (any, error) {
	if len(params) != 2 {
		return nil, fmt.Errorf("serialLess takes 2 arguments (the two zone serials, such as serialLess(secondary.serial, primary.serial)), not %d", len(params))
	}
	a, err := zoneSerial(params[0], "the first serial")
	if err != nil {
		return nil, err
	}
	b, err := zoneSerial(params[1], "the second serial")
	if err != nil {
		return nil, err
	}
	d := b - a // mod 2^32
	if d == 1<<31 {
		return nil, fmt.Errorf("serialLess: %d and %d are 2^31 apart, and serial arithmetic (RFC 1982) gives such serials no order: neither is known to come first; bring the primary's serial on by less than 2^31 before its secondaries compare it", a, b)
	}
	return d != 0 && d < 1<<31, nil
}

// zoneSerial reads a zone serial, a whole number from 0 to 2^32-1 given
// as a number or its digits (serialLessFunc); what names the argument.
func zoneSerial(v any, what string) (uint32, error) {
	var text string
	switch x := v.(type) {
	case string:
		text = strings.TrimSpace(x)
	default:
		if jsonv.Of(v) != jsonv.Number {
			return 0, fmt.Errorf("serialLess: %s is %s, want a zone serial (a whole number from 0 to 4294967295, as dig prints it)", what, jsonv.Describe(v))
		}
		if f, ok := v.(float64); ok {
			if f != math.Trunc(f) || f < 0 || f > math.MaxUint32 {
				return 0, fmt.Errorf("serialLess: %s is %v, which is no zone serial: a serial is a whole number from 0 to 4294967295", what, v)
			}
			return uint32(f), nil
		}
		text = fmt.Sprint(v)
	}
	n, err := strconv.ParseUint(text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("serialLess: %s is %s, which is no zone serial: a serial is a whole number from 0 to 4294967295", what, strconv.Quote(text))
	}
	return uint32(n), nil
}

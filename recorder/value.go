package recorder

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// appendValue appends v as compact JSON, HTML characters unescaped. Scalars,
// []any and map[string]any (keys sorted, as encoding/json does) are written
// without allocating; anything else goes through encoding/json, and a value
// JSON cannot hold (a channel, a NaN) is written with %v.
//
// limit > 0 lets it stop early once more than limit bytes were written; the
// caller truncates. limit 0 writes everything.
func appendValue(b []byte, v any, limit int) []byte {
	start := len(b)
	return appendValueFrom(b, v, start, limit)
}

func appendValueFrom(b []byte, v any, start, limit int) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return appendInt(b, int64(x))
	case int8:
		return appendInt(b, int64(x))
	case int16:
		return appendInt(b, int64(x))
	case int32:
		return appendInt(b, int64(x))
	case int64:
		return appendInt(b, x)
	case uint:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case float64:
		return appendFloat(b, x, 64)
	case float32:
		return appendFloat(b, float64(x), 32)
	case json.Number:
		if x == "" {
			return append(b, '0')
		}
		return append(b, x...)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if limit > 0 && len(b)-start > limit {
				return b
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValueFrom(b, e, start, limit)
		}
		return append(b, ']')
	case map[string]any:
		if x == nil {
			return append(b, "null"...)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if limit > 0 && len(b)-start > limit {
				return b
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendValueFrom(b, x[k], start, limit)
		}
		return append(b, '}')
	}
	return appendMarshalled(b, v)
}

// appendMarshalled writes v through encoding/json, without HTML escaping.
func appendMarshalled(b []byte, v any) []byte {
	out, err := jsonv.Marshal(v)
	if err != nil {
		return fmt.Appendf(b, "%v", v)
	}
	return append(b, out...)
}

// appendFloat formats f as encoding/json does; NaN and infinities, which
// JSON cannot hold, are written as Go prints them.
func appendFloat(b []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.AppendFloat(b, f, 'g', -1, bits)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString writes s as a JSON string as jsonv.Marshal does: HTML
// characters as they are (jsonv.AppendString).
func appendString(b []byte, s string) []byte { return jsonv.AppendString(b, s, false) }

// appendInt is strconv.AppendInt(b, v, 10), written inline for the numbers
// below 1000 that most values are.
func appendInt(b []byte, v int64) []byte {
	switch {
	case v < 0 || v >= 1000:
		return strconv.AppendInt(b, v, 10)
	case v < 10:
		return append(b, byte('0'+v))
	case v < 100:
		return append(b, byte('0'+v/10), byte('0'+v%10))
	}
	return append(b, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
}

// truncateFrom shortens what was appended after start to at most width
// bytes, cut on a character boundary, with an ellipsis when anything was
// cut. width ≤ 0 leaves it whole.
func truncateFrom(b []byte, start, width int) []byte {
	if width <= 0 || len(b)-start <= width {
		return b
	}
	cut := start + width
	for cut > start && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return append(b[:cut], "…"...)
}

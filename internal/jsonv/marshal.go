package jsonv

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal with HTML characters (<, >, &) left as they
// are: the JSON a person reads, two values are compared by, or a
// MarshalJSON hands back to an encoder (which then escapes them or not,
// as it was told).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnescapeHTML undoes what encoding/json's default HTML escaping did to
// valid JSON text b: each \u003c, \u003e and \u0026 in a string is its
// character again, so JSON written by json.Marshal reads as Marshal's
// would have written it. A backslash escaped in the text (\\u003c) is
// left as it is; the result is valid JSON of the same values.
func UnescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+5 < len(b) && b[i+2] == '0' && b[i+3] == '0' {
			switch string(b[i+4 : i+6]) {
			case "3c":
				out, i = append(out, '<'), i+5
				continue
			case "3e":
				out, i = append(out, '>'), i+5
				continue
			case "26":
				out, i = append(out, '&'), i+5
				continue
			}
		}
		// Any other escape is kept whole, its second byte with it, so an
		// escaped backslash is never read as the start of an escape.
		out, i = append(out, b[i], b[i+1]), i+1
	}
	return out
}

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

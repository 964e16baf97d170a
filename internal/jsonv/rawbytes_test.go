package jsonv

import (
	"encoding/json"
	"net"
	"strings"
	"testing"
)

// TestWritableRefusesRawBytes: a []byte anywhere in a value a Go stage
// sets is written as base64 text no rule reads (the rule reads a list of
// numbers), so it is refused, saying where; a byte slice with its own
// JSON or text form (net.IP, json.RawMessage) and a field JSON leaves out
// are not.
func TestWritableRefusesRawBytes(t *testing.T) {
	type out struct {
		Stdout []byte
		Skip   []byte `json:"-"`
	}
	for _, tc := range []struct {
		name string
		v    any
		at   string // "" for allowed
	}{
		{"bytes", []byte("active\n"), "a []byte,"},
		{"in a list", []any{"x", []byte("a")}, "a []byte,"},
		{"in an object", map[string]any{"out": []byte("a")}, "a []byte,"},
		{"in a typed list", [][]byte{[]byte("a")}, `a []byte at "[0]"`},
		{"nil, written null", []byte(nil), ""},
		{"a struct field", out{Stdout: []byte("a")}, `a []byte at ".Stdout"`},
		{"a field JSON leaves out", out{Skip: []byte("a")}, ""},
		{"net.IP", net.ParseIP("10.0.0.1"), ""},
		{"json.RawMessage", json.RawMessage(`{"a":1}`), ""},
		{"a list of numbers", []int{97}, ""},
	} {
		err := Writable(tc.v)
		if tc.at == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.at) || !strings.Contains(err.Error(), "string(b)") {
			t.Errorf("%s: %v, want a refusal saying %q and string(b)", tc.name, err, tc.at)
		}
	}
}

package jsonv

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUnmarshal: Unmarshal on any bytes never panics, and what it lets
// through is what encoding/json reads (its refusals — duplicate keys, half
// a UTF-16 pair, trailing text — only ever refuse).
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `"\ud83d"`, `"\ud83d\ude00"`, `1 "\u`, `["\\ud800"]`, `{"a":{}, "b":[{"a":1}]}`, `{"a":1} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Unmarshal(data)
		if err != nil {
			return
		}
		var want any
		d := json.NewDecoder(bytes.NewReader(data))
		if d.Decode(&want) != nil {
			t.Fatalf("Unmarshal accepted %q, which encoding/json refuses", data)
		}
		if Kind(Of(got)) != Of(want) {
			t.Fatalf("Unmarshal = %#v, encoding/json = %#v", got, want)
		}
	})
}

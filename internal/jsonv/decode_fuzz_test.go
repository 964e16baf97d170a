package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecode (issue #19): Decode, the reader of a command's stdout with
// `parse: json`, on any bytes: never a panic; a *DepthError only for text
// nesting past MaxDepth; otherwise exactly what encoding/json decodes with
// UseNumber (numbers kept as their digits), so the depth scan never
// changes a value it lets through.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2]}`, `[[[]]]`, `"[[["`, `{"k": "\"[{"}`, `1e999`, `[` + `]`,
		string(bytes.Repeat([]byte("["), 600)), `{"ok": true} {"ok": false}`, `nul`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Decode(data)
		var de *DepthError
		if errors.As(err, &de) {
			if de.Offset < 0 || de.Offset >= len(data) || (data[de.Offset] != '[' && data[de.Offset] != '{') {
				t.Fatalf("DepthError at %d, which is not an opening bracket", de.Offset)
			}
			return
		}
		var want any
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		werr := d.Decode(&want)
		if (err == nil) != (werr == nil) {
			t.Fatalf("Decode err %v, encoding/json err %v", err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode = %#v, encoding/json = %#v", got, want)
		}
	})
}

// TestUnmarshal: one JSON value, its numbers settled as Decoded settles
// them, nesting bounded, text after it refused.
func TestUnmarshal(t *testing.T) {
	t.Parallel()
	got, err := Unmarshal([]byte(` {"id": 100000000, "big": 9007199254740993, "wide": 12345678901234567890, "f": 0.5, "l": [1, 2.5]} `))
	want := map[string]any{"id": 100000000, "big": 9007199254740993, "wide": json.Number("12345678901234567890"), "f": 0.5, "l": []any{1, 2.5}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Unmarshal = %#v, %v; want %#v", got, err, want)
	}
	if _, err := Unmarshal([]byte(`1 2`)); !errors.Is(err, ErrTrailing) {
		t.Errorf("two values: %v, want ErrTrailing", err)
	}
	var de *DepthError
	if _, err := Unmarshal(bytes.Repeat([]byte("["), 600)); !errors.As(err, &de) {
		t.Errorf("600 deep: %v, want a DepthError", err)
	}
	if _, err := Unmarshal([]byte(``)); err == nil {
		t.Errorf("no value: no error")
	}
}

package jsonv

import (
	"encoding/json"
	"testing"
)

func TestMarshalLeavesHTMLAsItIs(t *testing.T) {
	got, err := Marshal(map[string]any{"a<b": "x & y > z", "n": 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a<b":"x & y > z","n":1}`; string(got) != want {
		t.Fatalf("Marshal = %s, want %s", got, want)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Fatal("a func marshalled")
	}
}

func TestDecodePlainReadsNumbersAsTheWireDoes(t *testing.T) {
	v, err := DecodePlain([]byte(`{"n": 3, "f": 3.0, "l": [1, 2.5, {"x": 7}], "big": 1e999}`))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["n"] != 3 || m["f"] != 3.0 || m["l"].([]any)[0] != 1 || m["l"].([]any)[1] != 2.5 || m["l"].([]any)[2].(map[string]any)["x"] != 7 {
		t.Fatalf("DecodePlain = %#v", v)
	}
	if _, ok := m["big"].(json.Number); !ok {
		t.Fatalf("a number past float64 = %#v, want it kept as written", m["big"])
	}
	if v, err := DecodePlain([]byte("  \n")); v != nil || err != nil {
		t.Fatalf("empty input = %v, %v", v, err)
	}
	if _, err := DecodePlain([]byte(`1 2`)); err == nil {
		t.Fatal("two values decoded")
	}
}

// TestUnescapeHTML: json.Marshal's HTML escapes are undone, to the bytes
// Marshal writes, and nothing else changes: an escaped backslash before
// "u003c" stays, as do other escapes.
func TestUnescapeHTML(t *testing.T) {
	for _, v := range []any{
		"used >= 90 && x < 3",
		`a \u003e b`,
		map[string]any{"<k>": []any{"&", `\`, "\u2028", "\"q\"", 1.5}},
		"",
	} {
		escaped, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := UnescapeHTML(escaped); string(got) != string(want) {
			t.Errorf("UnescapeHTML(%s) = %s; want %s", escaped, got, want)
		}
	}
}

// FuzzUnescapeHTML: for any value, json.Marshal's text unescaped is the
// text Marshal writes, and it decodes to the same value.
func FuzzUnescapeHTML(f *testing.F) {
	for _, s := range []string{"<>&", `\u003c`, `\\u003e`, "a\\", "\u2029"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		escaped, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := UnescapeHTML(escaped); string(got) != string(want) {
			t.Errorf("UnescapeHTML(%s) = %s; want %s", escaped, got, want)
		}
	})
}

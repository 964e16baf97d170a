package jsonv

import (
	"errors"
	"strings"
	"testing"
)

// TestUnmarshalDuplicateKeyIsRefused: {"status":"ok","status":"failed"}
// read as {"status":"failed"}, the "ok" dropped in silence (encoding/json
// keeps the last; other readers keep the first). A key named twice in one
// object, at any depth, is refused with the key and where; the same key in
// two objects, and "{}" and lists around keys, are not.
func TestUnmarshalDuplicateKeyIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, key string
		off     int64
	}{
		{`{"status":"ok","status":"failed"}`, "status", 23},
		{`[{"a":{}}, {"b": [1, {"x": 1, "y": [], "x": 2}]}]`, "x", 42},
		{`{"a": {"k": 1}, "k": {"k": 2, "k": 3}}`, "k", 33},
	} {
		_, err := Unmarshal([]byte(tc.in))
		var de *DuplicateKeyError
		if !errors.As(err, &de) || de.Key != tc.key || de.Offset != tc.off {
			t.Errorf("Unmarshal(%s) = %v; want the key %q named twice, at %d", tc.in, err, tc.key, tc.off)
		}
	}
	for _, in := range []string{`{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}], "c": {}}`, `[]`, `{}`, `"s"`, `[{}, {}]`, `{"n": 1e400, "m": [-1e999]}`} {
		if _, err := Unmarshal([]byte(in)); err != nil {
			t.Errorf("Unmarshal(%s) = %v; want no error", in, err)
		}
	}
	if _, err := Unmarshal([]byte(`{"a":1} {"a":1}`)); !errors.Is(err, ErrTrailing) {
		t.Errorf("two values: %v, want ErrTrailing", err)
	}
}

// TestUnmarshalLoneSurrogateIsRefused: {"a":"\ud83d","b":"\udfff"} read as
// two strings "\uFFFD", equal, with nothing said: half a UTF-16 pair (an
// emoji cut by a writer that slices UTF-16) is no text. It is refused
// with the escape and where; a whole pair, an escaped backslash before
// "ud800", and the BMP are not.
func TestUnmarshalLoneSurrogateIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, esc string
		off     int
	}{
		{`{"a":"\ud83d","b":"\udfff"}`, `\ud83d`, 6},
		{`["ok", "x\uDFFFy"]`, `\uDFFF`, 9},
		{`"\ud83d\u0041"`, `\ud83d`, 1},
		{`{"\ud800": 1}`, `\ud800`, 2},
	} {
		_, err := Unmarshal([]byte(tc.in))
		var se *SurrogateError
		if !errors.As(err, &se) || se.Escape != tc.esc || se.Offset != tc.off {
			t.Errorf("Unmarshal(%s) = %v; want %s at %d refused", tc.in, err, tc.esc, tc.off)
		}
	}
	for _, in := range []string{`"\ud83d\ude00"`, `["\\ud800", "\u00e9\u2713"]`, `{"k": "\"\\"}`, `1`} {
		if _, err := Unmarshal([]byte(in)); err != nil {
			t.Errorf("Unmarshal(%s) = %v; want no error", in, err)
		}
	}
}

// TestWritableRefusesTextThatIsNotUTF8: a Go stage's write or an input
// (`--input name=caf\xe9`) holding bytes that are not UTF-8 was taken, and
// the record held U+FFFD for them: two names (caf\xe9, caf\xe8) were one.
// Writable refuses such a text, a key, and one inside a struct, saying
// where; UTF-8 passes.
func TestWritableRefusesTextThatIsNotUTF8(t *testing.T) {
	t.Parallel()
	type named struct{ Name string }
	for _, v := range []any{"caf\xe9", []any{"ok", map[string]any{"k": "\xff"}}, map[string]any{"caf\xe8": 1}, named{Name: "x\xc3"}} {
		if err := Writable(v); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
			t.Errorf("Writable(%#v) = %v; want it refused as not UTF-8", v, err)
		}
	}
	for _, v := range []any{"café ✓", map[string]any{"résumé": []any{"\u00e9"}}, named{Name: "é"}} {
		if err := Writable(v); err != nil {
			t.Errorf("Writable(%#v) = %v; want nil", v, err)
		}
	}
}

// TestUnmarshalDuplicateKeySameValueIsRead: a key named twice with the
// same value, as written (whitespace aside), means one thing whichever
// value a reader keeps, and is read — tools do emit it (a writer that
// prints a field from two places: {"name":"eth0","flags":["UP"],
// "flags":["UP"]}); refused, the whole line went unread, the run Not sure
// and a chart that read its mtu failed. Two different values are still
// refused, and so is a value written another way (1 and 1.0), which this
// check does not judge.
func TestUnmarshalDuplicateKeySameValueIsRead(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"name":"eth0","flags":["UP"],"flags":["UP"],"mtu":1500}`,
		`{"a": {"x": [1, "two"]}, "a":{"x":[1,"two"]}}`,
		`[{"s":"ok","s":"ok","s" : "ok"}]`,
		`{"n": null, "n": null}`,
	} {
		if _, err := Unmarshal([]byte(in)); err != nil {
			t.Errorf("Unmarshal(%s) = %v; want it read", in, err)
		}
	}
	for _, tc := range []struct {
		in, key string
		off     int64
	}{
		{`{"s":"ok","s":"ok","s":"failed"}`, "s", 22},
		{`{"n": 1, "n": 1.0}`, "n", 12},
		{`{"a": {"x": 1}, "a": {"x": 1, "y": 2}}`, "a", 19},
		{`{"a": {"k": 1, "k": 2}, "a": {"k": 1, "k": 2}}`, "k", 18},
	} {
		_, err := Unmarshal([]byte(tc.in))
		var de *DuplicateKeyError
		if !errors.As(err, &de) || de.Key != tc.key || de.Offset != tc.off || !strings.Contains(err.Error(), "two different values") {
			t.Errorf("Unmarshal(%s) = %v; want the key %q named twice with two values, at %d", tc.in, err, tc.key, tc.off)
		}
	}
}

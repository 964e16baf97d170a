package jsonv

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDecodePlainRefusesTextThatIsNotUTF8: encoding/json reads each bad
// byte as U+FFFD, so two different answers read as one string.
func TestDecodePlainRefusesTextThatIsNotUTF8(t *testing.T) {
	for _, in := range []string{"{\"s\":\"\xff\xfe\"}", "{\"s\":\"\xc0\xc1\"}", "[\"ok\", \"\xed\xa0\x80\"]"} {
		if v, err := DecodePlain([]byte(in)); err == nil || !strings.Contains(err.Error(), "not UTF-8: byte") {
			t.Errorf("DecodePlain(%q) = %v, %v; want a not UTF-8 error", in, v, err)
		}
	}
	if v, err := DecodePlain([]byte(`{"s":"\ufffd é"}`)); err != nil || v.(map[string]any)["s"] != "\ufffd é" {
		t.Errorf("valid text: %v, %v", v, err)
	}
}

// TestInvalidUTF8SaysWhere: what json.Marshal would change without an
// error, found at any depth, in a value or a key.
func TestInvalidUTF8SaysWhere(t *testing.T) {
	type row struct{ Name string }
	tests := []struct {
		v    any
		want string
		bad  bool
	}{
		{"fine é", "", false},
		{[]byte{0xff}, "", false}, // base64 on the wire
		{map[string]any{"a": []any{1, "x", "\xff"}}, ".a[2]", true},
		{map[string]any{"\xff": 1}, `."\xff" (the key)`, true},
		{&row{Name: "\xfe"}, ".Name", true},
		{[]string{"ok", "\xc0"}, "[1]", true},
	}
	for _, tc := range tests {
		at, bad := InvalidUTF8(tc.v)
		if at != tc.want || bad != tc.bad {
			t.Errorf("InvalidUTF8(%#v) = %q, %v; want %q, %v", tc.v, at, bad, tc.want, tc.bad)
		}
	}
}

// TestNotFiniteSaysWhere: what json.Marshal refuses without saying where,
// found at any depth; a string or a finite number is not it, and a NaN
// is no bad UTF-8 (the two walks look for their own thing only).
func TestNotFiniteSaysWhere(t *testing.T) {
	type row struct{ Used float32 }
	tests := []struct {
		v    any
		want string
		bad  bool
	}{
		{1.5, "", false},
		{"NaN", "", false},
		{map[string]any{"a": []any{1, "x", math.NaN()}}, ".a[2]", true},
		{&row{Used: float32(math.Inf(1))}, ".Used", true},
		{[]float64{0, math.Inf(-1)}, "[1]", true},
	}
	for _, tc := range tests {
		at, bad := NotFinite(tc.v)
		if at != tc.want || bad != tc.bad {
			t.Errorf("NotFinite(%#v) = %q, %v; want %q, %v", tc.v, at, bad, tc.want, tc.bad)
		}
	}
	if _, bad := InvalidUTF8(map[string]any{"n": math.NaN()}); bad {
		t.Error("InvalidUTF8 took a NaN for bad text")
	}
}

// FuzzValidTextAgreesWithUTF8: the ASCII fast path says what
// utf8.ValidString says, on any text, with the invalid byte anywhere.
func FuzzValidTextAgreesWithUTF8(f *testing.F) {
	for _, s := range []string{"", "ok", "degraded", "Müller", "a\xffb", "\xe2\x82", "héllo wörld, a longer text", "abc\xc0\xafdef"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validText(s), utf8.ValidString(s); got != want {
			t.Fatalf("validText(%q) = %v, utf8.ValidString = %v", s, got, want)
		}
	})
}

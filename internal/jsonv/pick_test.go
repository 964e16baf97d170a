package jsonv

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestPick(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		paths    []string
		want     map[string]string
		err      string
	}{
		{"top and nested", `{"a": 1, "b": {"c": "x", "d": [1, {"c": 2}]}, "e": null}`, []string{"a", "b.c", "e", "b.z"},
			map[string]string{"a": "1", "b.c": `"x"`, "e": "null"}, ""},
		{"whole object picked", `{"r": {"p": {"q": [1,2]}, "s": "}"}}`, []string{"r"}, map[string]string{"r": `{"p": {"q": [1,2]}, "s": "}"}`}, ""},
		{"brackets and quotes in strings", `{"s": "a\"}]\\", "t": "\\\\\"", "k": true}`, []string{"k", "t"}, map[string]string{"k": "true", "t": `"\\\\\""`}, ""},
		{"escaped key", `{"r\u0065sult": {"pause": {"stage": "ask"}}}`, []string{"result.pause"}, map[string]string{"result.pause": `{"stage": "ask"}`}, ""},
		{"a path into a scalar picks nothing", `{"result": 5}`, []string{"result.pause"}, map[string]string{}, ""},
		{"last of a key given twice", `{"a": 1, "a": 2}`, []string{"a"}, map[string]string{"a": "2"}, ""},
		{"last of an object given twice", `{"b": {"c": 1}, "b": 2}`, []string{"b.c"}, map[string]string{}, ""},
		{"empty object", ` {} `, []string{"a"}, map[string]string{}, ""},
		{"cut short", `{"a": [1, 2`, []string{"a"}, nil, "ends inside a value"},
		{"cut in a string", `{"a": "abc`, nil, nil, "ends inside a value"},
		{"open object", `{"a": 1`, nil, nil, "ends inside a value"},
		{"wrong closer", `{"a": [1}`, nil, nil, `'}' closes a '['`},
		{"text after", `{"a": 1} x`, nil, nil, "after the object"},
		{"a list", `[1]`, nil, nil, "not a JSON object"},
		{"no colon", `{"a" 1}`, nil, nil, "not ':'"},
		{"trailing comma", `{"a": 1,}`, nil, nil, "key should start"},
		{"empty", ``, nil, nil, "EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// one byte a read: every value crosses a refill
			got, err := Pick(iotest.OneByteReader(strings.NewReader(tc.in)), tc.paths...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Pick = %v, %v; want an error saying %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text := map[string]string{}
			for k, v := range got {
				text[k] = string(v)
			}
			if !reflect.DeepEqual(text, tc.want) {
				t.Fatalf("Pick = %v, want %v", text, tc.want)
			}
		})
	}
}

// TestPickReadsAWideRecordInASmallBuffer: a member of tens of megabytes
// is skipped, not held (json.Decoder held the whole text to fill three
// fields of a record about to be replaced).
func TestPickReadsAWideRecordInASmallBuffer(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"result": {"runbook": "wide", "state": [`)
	for i := range 400000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"index": 1, "n": "a \"quoted\" [text]"}`)
	}
	b.WriteString(`], "pause": null}, "checkpoint": {"at": 1}}`)
	size := b.Len()
	r := &countingReader{r: &b}
	got, err := Pick(r, "checkpoint", "result.runbook", "result.pause")
	if err != nil {
		t.Fatal(err)
	}
	if string(got["checkpoint"]) != `{"at": 1}` || string(got["result.runbook"]) != `"wide"` || string(got["result.pause"]) != "null" {
		t.Fatalf("Pick = %s", got)
	}
	if r.n != size || r.biggest > 64<<10 {
		t.Fatalf("read %d of %d bytes, at most %d a read", r.n, size, r.biggest)
	}
}

type countingReader struct {
	r          io.Reader
	n, biggest int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.biggest = max(c.biggest, len(p))
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// FuzzPick: Pick never panics, and on an object encoding/json reads, it
// picks what encoding/json finds at the same paths.
func FuzzPick(f *testing.F) {
	for _, s := range []string{`{"a": 1, "b": {"c": "x"}}`, `{"b": {"c": [1, "]"], "c": {"d": null}}}`, `{"a": "\\\"", "b": 2}`, `{"a":}`, `{"b": {"c": 1}`, `{"b": {"c": 1}, "b": {"d": 2}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Pick(strings.NewReader(in), "a", "b.c")
		var whole map[string]any
		if json.Unmarshal([]byte(in), &whole) != nil || whole == nil {
			return
		}
		if err != nil {
			t.Fatalf("Pick refused %q, which encoding/json reads: %v", in, err)
		}
		want := map[string]any{}
		if v, ok := whole["a"]; ok {
			want["a"] = v
		}
		if b, ok := whole["b"].(map[string]any); ok {
			if v, ok := b["c"]; ok {
				want["b.c"] = v
			}
		}
		picked := map[string]any{}
		for k, raw := range got {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatalf("Pick gave %s at %s, not a JSON value: %v", raw, k, err)
			}
			picked[k] = v
		}
		if !reflect.DeepEqual(picked, want) {
			t.Fatalf("Pick(%q) = %v, encoding/json finds %v", in, picked, want)
		}
	})
}

package jsonv

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendString: a string is spelled as encoding/json spells it, with
// HTML escaping (json.Marshal) and without (an Encoder told not to).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `a "q" \ b`, "<a href='x'>&</a>", "\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029", "caf\xe9", "日本\xff語", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s, true); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q, html) = %s, json.Marshal = %s", s, got, want)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := AppendString(nil, s, false), bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json without HTML escaping = %s", s, got, want)
		}
	})
}

// BenchmarkAppendString spells the short texts a record and a narrative
// are made of: keys, labels, paths, a line of a tool's output.
func BenchmarkAppendString(b *testing.B) {
	texts := []string{"usedPct", "Disk filling on a degraded service", "per-volume~3/posture#2", "degraded", "Filesystem     1K-blocks    Used Available Use% Mounted on", "caf\u00e9 <b>"}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			buf = AppendString(buf[:0], s, true)
			buf = AppendString(buf[:0], s, false)
		}
	}
}

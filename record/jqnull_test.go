package record

import "testing"

// TestJQNullFindsTheWordJQPrinted: under a text mode a field that is the
// word null; under json and jsonl a line that is null alone and
// unindented, never a null the tool gave inside a pretty-printed value.
func TestJQNullFindsTheWordJQPrinted(t *testing.T) {
	for _, tc := range []struct{ mode, out, want string }{
		{"columns", "lo UNKNOWN\neth0 null\n", "eth0 null"},
		{"", "null\n", "null"},
		{"tsv", "eth0\tnull\t1500\n", "eth0\tnull\t1500"},
		{"lines", "/dev/vda /\r\n/dev/vdb null\r\n", "/dev/vdb null"},
		{"lines", "nullable\nnull-route 10.0.0.0/8\n", ""},
		{"columns", "lo UNKNOWN\neth0 DOWN\n", ""},
		{"json", "null\n", "null"},
		{"jsonl", "{\"a\":1}\nnull\n", "null"},
		{"json", "[\n  null\n]\n", ""},
		{"json", "{\"mountpoint\": null}\n", ""},
	} {
		if got := JQNull(tc.mode, tc.out); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.mode, tc.out, got, tc.want)
		}
	}
}

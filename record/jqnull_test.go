package record

import "testing"

// TestJQNullFindsTheWordJQPrinted: a line that is null alone (under
// json and jsonl unindented, never a null the tool gave inside a
// pretty-printed value); a null among other words is left to the rows.
func TestJQNullFindsTheWordJQPrinted(t *testing.T) {
	for _, tc := range []struct{ mode, out, want string }{
		{"", "null\n", "null"},
		{"lines", "/dev/vda\r\nnull\r\n", "null"},
		{"lines", "kernel: received null pointer\n", ""},
		{"columns", "eth0 null\n", ""},
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

// TestJQNullWordIsAWholeValue: a row's value that is the word null; prose
// holding the word, and /dev/null, are not.
func TestJQNullWordIsAWholeValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{[]any{map[string]any{"name": "lo", "state": "UNKNOWN"}, map[string]any{"name": "eth0", "state": "null"}}, `row 2 holds the word null as its "state"`},
		{map[string]any{"lo": "UNKNOWN", "eth0": "null"}, `row "eth0" holds the word null as its value`},
		{[]any{map[string]any{"msg": "received null pointer", "dev": "/dev/null"}}, ""},
		{"null", ""},
	} {
		if got := JQNullWord(tc.v); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestJQNullMemberIsNullInEveryObject: a member null in every object of
// a list, at any depth, is a key jq's input lacked; one null for some
// objects and set for others is the tool's.
func TestJQNullMemberIsNullInEveryObject(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"every link", []any{obj("name", "lo", "state", nil), obj("name", "eth0", "state", nil)}, `member "state" is null in each of the 2 objects of a list`},
		{"one link", []any{obj("name", "eth0", "state", nil)}, `member "state" is null in each of the 1 object of a list`},
		{"nested", obj("links", []any{obj("a", nil, "b", nil)}), `member "a" is null in each of the 1 object of a list`},
		{"some", []any{obj("name", "sda", "mountpoint", nil), obj("name", "sda1", "mountpoint", "/")}, ""},
		{"absent in one", []any{obj("state", nil), obj("name", "x")}, ""},
		{"a list of nulls", obj("mountpoints", []any{nil}), ""},
		{"empty", []any{}, ""},
	} {
		if got := JQNullMember(tc.v); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestJQEmptyColumnIsEmptyInEveryRow: a column jq's @tsv or @csv left
// empty in every row; one empty in some rows is the tool's.
func TestJQEmptyColumnIsEmptyInEveryRow(t *testing.T) {
	row := func(name, state string) map[string]any { return map[string]any{"name": name, "state": state} }
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"every row", []any{row("lo", ""), row("eth0", "")}, `column "state" is empty in each of the 2 rows (@tsv and @csv write null as an empty field)`},
		{"some rows", []any{row("lo", ""), row("eth0", "UP")}, ""},
		{"no rows", []any{}, ""},
		{"not rows", "text", ""},
	} {
		if got := JQEmptyColumn(tc.v); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

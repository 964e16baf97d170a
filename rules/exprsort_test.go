package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestSortByTextNumbersIsAnError: sortBy ordered df's capacities as text,
// "100%" before "90%", so last(sortBy(fs, .use)) — the fullest file
// system, a chart's author meant — was the emptier one, and a verdict
// over it said nothing was wrong. sort and sortBy now order their keys as
// `<` does: numbers, times and durations written as text are an error
// that says how to sort them; other keys sort as before, and ties keep
// their order.
func TestSortByTextNumbersIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"fs": []any{
			map[string]any{"mount": "/", "use": "90%", "used": 90, "host": "b", "at": "2026-12-06T10:30:00+02:00", "age": "1h30m"},
			map[string]any{"mount": "/var", "use": "100%", "used": 100, "host": "a", "at": "2026-12-06T09:00:00Z", "age": "45m"},
			map[string]any{"mount": "/srv", "use": "7%", "used": 7, "host": "a", "at": "2026-12-06T08:00:00Z", "age": "1h15m"},
		},
		"words": []any{"pear", "apple", "fig"},
		"mixed": []any{1, "a"},
	}
	tests := []valueCase{
		{`last(sortBy(fs, .use)).mount`, `"100%" are numbers written as text`, true},
		{`sortBy(fs, .at)`, "are times written as text", true},
		{`sortBy(fs, .age, "desc")`, "are durations written as text", true},
		{`sort(map(fs, .use))`, "are numbers written as text", true},
		// the error quotes the call as written, not as the patches left it
		{`sortBy(filter(fs, .used > 1), .use)`, `sortBy(filter(fs, .used > 1), .use): "90%" and "100%" are numbers`, true},
		{`last(sortBy(fs, .used)).mount`, "/var", false},
		{`last(sortBy(fs, int(trimSuffix(.use, "%")))).mount`, "/var", false},
		{`first(sortBy(fs, date(.at))).mount`, "/srv", false},
		{`last(sortBy(fs, date(.at))).mount`, "/var", false},
		{`map(sortBy(fs, .used, "desc"), .mount)`, "[/var / /srv]", false},
		{`map(sortBy(fs, .host), .mount)`, "[/var /srv /]", false}, // a tie keeps its order
		{`map(sortBy(fs, .host, "desc"), .mount)`, "[/ /var /srv]", false},
		{`sort(words)`, "[apple fig pear]", false},
		{`sort(words, "desc")`, "[pear fig apple]", false},
		{`sort([3, 1.5, 2])`, "[1.5 2 3]", false},
		{`sortBy([], #)`, "[]", false},
		{`sortBy(fs, .used, "up")`, `unknown order up: use "asc" or "desc"`, true},
		{`sort(mixed)`, "a string cannot be compared with a number", true},
	}
	runValues(t, env, tests)
}

// valueCase is an expression, and the value it gives over a test's env
// (as %v) or, with err, a part of the error it must give.
type valueCase struct {
	src  string
	want string
	err  bool
}

// runValues evaluates each case's expression over env, as a subtest.
func runValues(t *testing.T, env mapEnv, tests []valueCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			v, _, err := MustCompile(tc.src).Value(env)
			if tc.err {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("value %v, err %v; want an error saying %q", v, err, tc.want)
				}
				return
			}
			if err != nil || fmt.Sprint(v) != tc.want {
				t.Errorf("value %v, err %v; want %s", v, err, tc.want)
			}
		})
	}
}

// TestSortOrdersWideNumbersAsComparisonsDo: a whole number past int64's
// range (an unsigned 64-bit counter, as a JSON parse keeps it exactly)
// orders exactly under < and >, but sortBy over it was refused as a
// number "the rules order and compare exactly" (wave-etcd's finding):
// sorting ordered by expr's own less, which knows no such number. It
// orders by the rules' comparison now; dates still order.
func TestSortOrdersWideNumbersAsComparisonsDo(t *testing.T) {
	t.Parallel()
	wide := json.Number("18446744073709551615")
	env := mapEnv{"c": []any{map[string]any{"n": wide, "id": "a"}, map[string]any{"n": 1, "id": "b"}, map[string]any{"n": json.Number("18446744073709551614"), "id": "c"}}}
	runValues(t, env, []valueCase{
		{`map(sortBy(c, .n), .id)`, "[b c a]", false},
		{`map(sortBy(c, .n, "desc"), .id)`, "[a c b]", false},
		{`c[0].n > c[2].n`, "true", false},
	})
}
